// JSON text of the machine outputs: every --json record, ws-build's json,
// sarif and gitlab reports, and the apply record. The one place a JSON
// value becomes bytes, so that each output stays valid JSON (RFC 8259) and
// valid UTF-8 whatever bytes a workspace holds (ws(7), JSON OUTPUT):
//
// - Control characters are escaped as RFC 8259 requires: \n, \t, \r, \b, \f
//   and \u00XX for the others (ESC is \u001b); '"' and '\' as \" and \\.
//   Every other valid UTF-8 character is written as it is.
// - A text that is not valid UTF-8 (a path, a name, a message, a line of a
//   file) is written with U+FFFD for each byte that does not begin valid
//   UTF-8 (the unit of decode_utf8, as the terminal's \xff escape), and,
//   with JsonBytes::alongside, the object holding it gains the member
//   "<name>_bytes": the exact bytes in base64 (RFC 4648, padded), as
//   ripgrep's {"bytes": ...}. A member holding an array of texts gains an
//   array of the same length: base64 where a text is not UTF-8, else null.
//   A text that is valid UTF-8 gets no such member.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ws {

// The version of the tools' JSON Lines records (ws(7), JSON OUTPUT; their
// schemas are schemas/output/<tool>.json). Every record carries it, so that
// any one line read alone (after grep, jq select, head) says what it is.
// Within a version fields and record types are only ever added; removing or
// renaming one, or changing what it means, raises it.
inline constexpr int kJsonRecordVersion = 1;

// A record of a tool's --json output, {"type": type, "version": 1}, for the
// caller to add its fields to: the one way such a record starts.
nlohmann::ordered_json json_record(std::string_view type);

// Whether the "<name>_bytes" members are added: the tools' own formats carry
// them; formats whose schema is fixed elsewhere (SARIF, GitLab code
// quality) carry the U+FFFD form only.
enum class JsonBytes { alongside, replaced_only };

// The JSON text of `value`; `indent` as nlohmann's dump (-1: one line).
// Never throws on any bytes.
std::string json_text(nlohmann::json value, JsonBytes bytes = JsonBytes::alongside, int indent = -1);
std::string json_text(nlohmann::ordered_json value, JsonBytes bytes = JsonBytes::alongside, int indent = -1);

// The exact bytes of the text member `key` of `object` as json_text wrote
// it: "<key>_bytes" decoded where present, else the string itself; nullopt
// when the member is missing, not a string, or its bytes are not base64.
std::optional<std::string> json_text_member(const nlohmann::json& object, const std::string& key);
// The same for a member holding an array of texts.
std::optional<std::vector<std::string>> json_text_list_member(const nlohmann::json& object, const std::string& key);

// The name of the member that carries the exact bytes of member `key`.
std::string json_bytes_member(std::string_view key);

// `text` with each byte that does not begin valid UTF-8 replaced by U+FFFD;
// `text` itself when it is valid UTF-8.
std::string utf8_replaced(std::string_view text);
bool is_valid_utf8(std::string_view text);

std::string base64_encode(std::string_view bytes);
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace ws
