// JSON-RPC 2.0 messages as ws lsp and ws mcp speak them (ws-lsp(1),
// ws-mcp(1)): the envelope of a message read, the answers written, and the
// error codes both protocols share. The transports differ (LSP's
// Content-Length frames, MCP's lines); what a message is does not.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ws::detail::jsonrpc {

// The error codes of JSON-RPC 2.0.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

// One line of JSON text whatever the bytes: a text that is not UTF-8 is
// written with U+FFFD, never thrown over.
std::string dump(const nlohmann::json& j);

nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message);
nlohmann::json result_response(const nlohmann::json& id, nlohmann::json result);
nlohmann::json notification(std::string_view method, nlohmann::json params);

// A message read: a request (`id` set), a notification (no id), or a
// response to the server (no method), which neither protocol expects and
// both ignore.
struct Message {
  std::optional<nlohmann::json> id;  // a string or an integer
  std::optional<std::string> method;
  nlohmann::json params = nlohmann::json::object();  // {} when absent or null
};

// The message in `text`, or the error response to send for it: not JSON
// (parse error, id null), not a JSON-RPC 2.0 request or notification
// (invalid request, with its id when that id is valid). A batch (an array)
// is an invalid request: neither protocol sends one.
struct Parsed {
  std::optional<Message> message;
  nlohmann::json error;  // the response, when message is empty
};
Parsed parse_message(std::string_view text);

// Members of a JSON object, each nullptr or nullopt when absent or of
// another type (a message of unexpected shape is answered, never thrown).
const nlohmann::json* member(const nlohmann::json& o, const char* key);
std::optional<std::string> string_member(const nlohmann::json& o, const char* key);

}  // namespace ws::detail::jsonrpc
