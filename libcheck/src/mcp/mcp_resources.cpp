// Resources and subscriptions (mcp_resources.h).
#include "mcp_resources.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include "json_rpc.h"
#include "libcheck/listing.h"
#include "libcheck/path_policy.h"

namespace ws::mcp::detail {

using nlohmann::json;
namespace rpc = ws::detail::jsonrpc;

namespace {

constexpr std::string_view kScheme = "ws://";
constexpr std::size_t kPage = 1000;
// The most files one connection watches: each is looked at after every message.
constexpr std::size_t kMaxWatched = 10000;

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

const char* mime_type(const Kind* kind) {
  if (!kind) return "text/plain";
  switch (kind->format) {
    case Format::json: return "application/json";
    case Format::markdown: return "text/markdown";
    case Format::csharp: return "text/x-csharp";
    default: return "text/plain";
  }
}

Result<std::string> path_param(const json& params) {
  auto uri = rpc::string_member(params, "uri");
  auto path = uri ? resource_path(*uri) : std::nullopt;
  if (!path) return make_error(Errc::usage, "invalid params: 'uri' must be a ws:// URI of a file of the workspace");
  if (auto bad = check_path(*path, read_policy())) return make_error(Errc::refused, bad->message(), *path, to_rule(bad->rule));
  return *path;
}

}  // namespace

std::string resource_uri(std::string_view path) {
  std::string out(kScheme);
  char esc[4];
  for (unsigned char c : path) {
    if (unreserved(c)) {
      out += static_cast<char>(c);
      continue;
    }
    std::snprintf(esc, sizeof esc, "%%%02X", c);
    out += esc;
  }
  return out;
}

std::optional<std::string> resource_path(std::string_view uri) {
  if (uri.substr(0, kScheme.size()) != kScheme) return std::nullopt;
  std::string out;
  for (std::size_t i = kScheme.size(); i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out += uri[i];
      continue;
    }
    int hi = i + 2 < uri.size() ? hex_value(uri[i + 1]) : -1, lo = i + 2 < uri.size() ? hex_value(uri[i + 2]) : -1;
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

Result<json> Subscriptions::list(const ToolContext& context, const json& params) const {
  std::size_t from = 0;
  if (auto cursor = rpc::string_member(params, "cursor")) {
    if (cursor->empty() || cursor->find_first_not_of("0123456789") != std::string::npos || cursor->size() > 12)
      return make_error(Errc::usage, "invalid params: 'cursor' is not one this server gave");
    from = std::stoull(*cursor);
  }
  auto ws = open_for_tool(context, false, false);
  if (!ws) return ws.error();
  auto listing = list_view(*ws, ListOptions{});
  if (!listing) return listing.error();
  json resources = json::array();
  std::size_t page = std::min(kPage, std::max<std::size_t>(context.caps.records, 1)), seen = 0;
  json out = json::object();
  for (const ListedEntry& e : listing->entries) {
    if (!e.kind || e.secret || e.entry->status == ChangeStatus::deleted) continue;
    if (seen++ < from) continue;
    if (resources.size() == page) {
      out["nextCursor"] = std::to_string(from + page);
      break;
    }
    resources.push_back({{"uri", resource_uri(e.entry->path)}, {"name", e.entry->path}, {"mimeType", mime_type(e.kind)}});
  }
  out["resources"] = std::move(resources);
  return out;
}

Result<json> Subscriptions::read(const ToolContext& context, const json& params) const {
  auto path = path_param(params);
  if (!path) return path.error();
  auto ws = open_for_tool(context, false, false);
  if (!ws) return ws.error();
  auto file = read_view_file(*ws, *path);
  if (!file) return file.error();
  return json{{"contents", json::array({{{"uri", resource_uri(*path)},
                                          {"mimeType", mime_type(ws->kinds.route(*path))},
                                          {"text", std::move(file->text)}}})}};
}

Result<json> Subscriptions::subscribe(const json& params, bool on) {
  auto path = path_param(params);
  if (!path) return path.error();
  if (on && !watched_.count(*path) && watched_.size() >= kMaxWatched)
    return make_error(Errc::usage, "invalid params: " + std::to_string(kMaxWatched) +
                                       " files are subscribed already; unsubscribe some first");
  if (on) watched_[*path] = stamp_of(*path);
  else watched_.erase(*path);
  return json::object();
}

bool Subscriptions::set_root(const std::string& root) {
  root_.reset(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  return root_.valid();
}

// Looked at as every read looks: a folder on the way that is a link or a
// mount point is no way in (the file then reads as absent), and the file
// itself is not followed, so a subscription never watches anything outside.
FileStamp Subscriptions::stamp_of(const std::string& path) const {
  std::size_t slash = path.rfind('/');
  ws::detail::Fd folder;
  int dir = root_.get();
  if (slash != std::string::npos) {
    auto opened = ws::detail::open_dir_beneath(root_.get(), std::string_view(path).substr(0, slash));
    if (!opened.fd.valid()) return FileStamp{};
    folder = std::move(opened.fd);
    dir = folder.get();
  }
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return file_stamp_at(dir, name.c_str(), AT_SYMLINK_NOFOLLOW);
}

std::vector<std::string> Subscriptions::changed() {
  std::vector<std::string> out;
  for (auto& [path, stamp] : watched_) {
    FileStamp now = stamp_of(path);
    if (now == stamp) continue;
    stamp = now;
    out.push_back(resource_uri(path));
  }
  return out;
}

}  // namespace ws::mcp::detail
