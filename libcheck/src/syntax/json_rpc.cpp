// JSON-RPC 2.0 envelopes (json_rpc.h).
#include "json_rpc.h"

namespace ws::detail::jsonrpc {

using nlohmann::json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json error_response(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json result_response(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json notification(std::string_view method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", std::string(method)}, {"params", std::move(params)}};
}

const json* member(const json& o, const char* key) {
  if (!o.is_object()) return nullptr;
  auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}

std::optional<std::string> string_member(const json& o, const char* key) {
  const json* v = member(o, key);
  if (!v || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

Parsed parse_message(std::string_view text) {
  json m = json::parse(text, nullptr, false);
  if (m.is_discarded()) return Parsed{std::nullopt, error_response(nullptr, kParseError, "parse error: the message is not JSON")};
  const json* id = member(m, "id");
  bool valid_id = !id || id->is_string() || id->is_number_integer();
  auto method = string_member(m, "method");
  const json* params = member(m, "params");
  // null is taken as absent: LSP clients send it with shutdown and exit.
  if (params && params->is_null()) params = nullptr;
  bool valid_params = !params || params->is_object() || params->is_array();
  if (!m.is_object() || !valid_id || string_member(m, "jsonrpc") != "2.0" || (!method && !id) || !valid_params)
    return Parsed{std::nullopt, error_response(valid_id && id ? *id : json(nullptr), kInvalidRequest,
                                               "invalid request: not a JSON-RPC 2.0 request or notification")};
  Message out;
  if (id) out.id = *id;
  out.method = std::move(method);
  // Moved, never copied: nlohmann's copy recurses, and params may nest
  // as deep as the parser (which does not recurse) allowed.
  if (params) out.params = std::move(m["params"]);
  return Parsed{std::move(out), nullptr};
}

}  // namespace ws::detail::jsonrpc
