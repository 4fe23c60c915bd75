// The MCP server (mcp.h, ws-mcp(1)): JSON-RPC messages in, messages out;
// the lifecycle, tools/list and tools/call, resources and their
// subscriptions. Each tool call answers for the files as they are now (mcp_tools.h).
#include <sys/stat.h>

#include <map>

#include "json_rpc.h"
#include "libcheck/compile.h"
#include "libcheck/listing.h"
#include "libcheck/mcp.h"
#include "libcheck/path_policy.h"
#include "mcp_resources.h"
#include "mcp_tools.h"
#include "random_hex.h"

namespace ws::mcp {

using nlohmann::json;
namespace rpc = ws::detail::jsonrpc;

namespace {

// The protocol versions this server speaks, newest first: structured tool
// results came with 2025-06-18, and 2025-03-26's clients ignore them.
const char* const kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26"};

std::string negotiated_version(const json& params) {
  auto asked = rpc::string_member(params, "protocolVersion");
  for (const char* v : kProtocolVersions)
    if (asked == v) return v;
  return kProtocolVersions[0];
}

// What a request answers: a result, or a JSON-RPC error.
struct Answer {
  json result;
  int code = 0;
  std::string message;
};
Answer fail(int code, std::string message) { return Answer{nullptr, code, std::move(message)}; }

// A tool's records as MCP's result: structured, and the same JSON as text
// for clients that read text only (the MCP specification asks for both); a
// refusal as a tool error whose text is the message the command-line tools
// print.
json tool_result(const detail::ToolOutcome& outcome) {
  if (outcome.error) {
    json meta = {{"rule", rule_name(outcome.error->rule)}};
    return {{"content", json::array({{{"type", "text"}, {"text", outcome.error->message}}})},
            {"isError", true},
            {"_meta", std::move(meta)}};
  }
  // The response is written with its keys sorted (nlohmann::json), so the
  // text is made from the same sorted JSON to read as the structured one.
  json records = json::array();
  for (const detail::Record& r : outcome.records)
    records.push_back(json::parse(r.dump(-1, ' ', false, json::error_handler_t::replace)));
  json structured = {{"records", std::move(records)}};
  std::string text = structured.dump(-1, ' ', false, json::error_handler_t::replace);
  return {{"content", json::array({{{"type", "text"}, {"text", std::move(text)}}})},
          {"structuredContent", std::move(structured)},
          {"isError", false}};
}

}  // namespace

std::string generated_session() { return "mcp-" + ws::detail::random_hex(4); }

struct Server::State {
  ServerOptions options;
  enum class Phase { fresh, running } phase = Phase::fresh;
  detail::ToolContext tools;
  detail::Subscriptions subscriptions;

  explicit State(ServerOptions o) : options(std::move(o)) {
    if (options.session.empty()) options.session = generated_session();
    tools.open.dir = options.dir;
    tools.open.kinds_dir = options.kinds_dir;
    tools.open.session = options.session;
    tools.caps = detail::Caps{options.max_records, options.max_bytes};
  }

  Answer initialize(const json& params) {
    if (phase != Phase::fresh) return fail(rpc::kInvalidRequest, "initialize came twice");
    // The workspace must open: a server that cannot serve says so at once.
    auto ws = detail::open_for_tool(tools, true, false);
    if (!ws) return fail(rpc::kInternalError, ws.error().message);
    if (!ws->root) return fail(rpc::kInternalError, "ws mcp needs a working tree; this repository is bare");
    if (!subscriptions.set_root(ws->root->path()))
      return fail(rpc::kInternalError, "cannot open the workspace's folder '" + ws->root->path() + "'");
    phase = Phase::running;
    std::string instructions =
        "The workspace at '" + ws->root->path() + "', served by ws in session '" + options.session +
        "'. Look with ls, grep and read; change files with write (naming the blob you read) and delete; check "
        "with build; stage the changes with commit for a person to approve. Results are capped: a record whose "
        "type ends in '-Truncated' says how much was left out.";
    return Answer{{{"protocolVersion", negotiated_version(params)},
                   {"capabilities", {{"tools", {{"listChanged", false}}},
                                     {"resources", {{"subscribe", true}, {"listChanged", false}}}}},
                   {"serverInfo", {{"name", "ws"}, {"title", "ws session " + options.session}, {"version", tool_version()}}},
                   {"instructions", std::move(instructions)}}};
  }

  static Answer list_tools() {
    json list = json::array();
    for (const detail::ToolSpec& t : detail::tool_specs())
      list.push_back({{"name", t.name},
                      {"description", t.description},
                      {"inputSchema", json::parse(t.input_schema)},
                      {"outputSchema", detail::output_schema(t)}});
    return Answer{{{"tools", std::move(list)}}};
  }

  Answer call_tool(const json& params) {
    auto name = rpc::string_member(params, "name");
    if (!name) return fail(rpc::kInvalidParams, "invalid params: tools/call needs the tool's 'name'");
    const detail::ToolSpec* tool = detail::find_tool(*name);
    if (!tool) return fail(rpc::kInvalidParams, "unknown tool '" + *name + "'");
    const json* arguments = rpc::member(params, "arguments");
    static const json none;
    return Answer{tool_result(tool->run(tools, arguments ? *arguments : none))};
  }

  Answer request(const std::string& method, const json& params) {
    if (method == "initialize") return initialize(params);
    if (method == "ping") return Answer{json::object()};
    if (phase == Phase::fresh) return fail(rpc::kInvalidRequest, "the server is not initialized");
    if (method == "tools/list") return list_tools();
    if (method == "tools/call") return call_tool(params);
    if (method == "resources/list") return resource_answer(subscriptions.list(tools, params));
    if (method == "resources/read") return resource_answer(subscriptions.read(tools, params));
    if (method == "resources/subscribe") return resource_answer(subscriptions.subscribe(params, true));
    if (method == "resources/unsubscribe") return resource_answer(subscriptions.subscribe(params, false));
    if (method == "resources/templates/list") return Answer{{{"resourceTemplates", json::array()}}};
    return fail(rpc::kMethodNotFound, "unknown method '" + method + "'");
  }

  static Answer resource_answer(Result<json> r) {
    if (!r) return fail(r.error().code == Errc::not_found ? -32002 : rpc::kInvalidParams, r.error().message);
    return Answer{std::move(*r)};
  }

  void message(std::string_view text, std::vector<std::string>& out) {
    rpc::Parsed parsed = rpc::parse_message(text);
    if (!parsed.message) {
      out.push_back(rpc::dump(parsed.error));
      return;
    }
    const rpc::Message& m = *parsed.message;
    // Notifications (initialized, cancelled, roots changed) need no answer:
    // every request is answered before the next is read.
    if (!m.method || !m.id) return;
    Answer a;
    try {
      a = request(*m.method, m.params);
    } catch (const std::exception& e) {
      // nlohmann's type errors on arguments of unexpected shape: this
      // request gets an error with its id, the server goes on.
      a = fail(rpc::kInternalError, std::string("internal error: ") + e.what());
    }
    out.push_back(rpc::dump(a.code ? rpc::error_response(*m.id, a.code, a.message)
                                   : rpc::result_response(*m.id, std::move(a.result))));
  }
};

Server::Server(ServerOptions options) : state_(std::make_unique<State>(std::move(options))) {}
Server::~Server() = default;

std::vector<std::string> Server::handle(std::string_view message) {
  std::vector<std::string> out;
  try {
    state_->message(message, out);
  } catch (const std::exception& e) {
    // nlohmann's type errors on a message of unexpected shape land here:
    // the request gets an error, the server goes on.
    out.push_back(rpc::dump(rpc::error_response(nullptr, rpc::kInternalError, std::string("internal error: ") + e.what())));
  }
  for (std::string& n : changed_resources()) out.push_back(std::move(n));
  return out;
}

std::string Server::line_error(const Error& error) const {
  return rpc::dump(rpc::error_response(nullptr, rpc::kParseError, error.message));
}

std::vector<std::string> Server::changed_resources() {
  std::vector<std::string> out;
  for (const std::string& uri : state_->subscriptions.changed())
    out.push_back(rpc::dump(rpc::notification("notifications/resources/updated", {{"uri", uri}})));
  return out;
}

bool Server::watching() const { return state_->subscriptions.watching(); }

const std::string& Server::session() const { return state_->options.session; }

Result<std::optional<std::string>> LineReader::next() {
  for (;;) {
    std::size_t nl = buffer_.find('\n', scanned_);
    if (nl == std::string::npos) {
      scanned_ = buffer_.size();
      // Room for the CR of a CR LF end, which the line does not count.
      if (buffer_.size() <= kMaxMessage + 1) return std::optional<std::string>();
      // Too long: dropped up to its end, said once.
      buffer_.clear();
      scanned_ = 0;
      if (skipping_) return std::optional<std::string>();
      skipping_ = true;
      return make_error(Errc::invalid, "parse error: a message over " + std::to_string(kMaxMessage) + " bytes was dropped");
    }
    std::string line = buffer_.substr(0, nl);
    buffer_.erase(0, nl + 1);
    scanned_ = 0;
    if (skipping_) {
      skipping_ = false;
      continue;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > kMaxMessage)
      return make_error(Errc::invalid, "parse error: a message over " + std::to_string(kMaxMessage) + " bytes was dropped");
    if (line.empty()) continue;
    return std::optional<std::string>(std::move(line));
  }
}

}  // namespace ws::mcp
