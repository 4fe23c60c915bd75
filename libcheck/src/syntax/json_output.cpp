// JSON text of the machine outputs; the policy is described in
// libcheck/json_output.h and ws(7), JSON OUTPUT.
#include "libcheck/json_output.h"

#include <algorithm>
#include <array>
#include <utility>

#include "libcheck/terminal_text.h"

namespace ws {

namespace {

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool all_ascii(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

// The texts of one object that are not UTF-8: each becomes U+FFFD-replaced
// in place, and its exact bytes go to the "<key>_bytes" member added after
// the walk of the object (adding while iterating would move its members).
template <class Json>
struct Sidecars {
  std::vector<std::pair<std::string, Json>> members;

  // A string member: replaced in place; true when it was not UTF-8.
  static bool replace(Json& v, std::string* exact) {
    auto& s = v.template get_ref<typename Json::string_t&>();
    if (is_valid_utf8(s)) return false;
    if (exact) *exact = base64_encode(s);
    s = utf8_replaced(s);
    return true;
  }

  void member(const std::string& key, Json& v, bool alongside) {
    if (v.is_string()) {
      std::string exact;
      if (replace(v, alongside ? &exact : nullptr) && alongside) members.emplace_back(json_bytes_member(key), exact);
      return;
    }
    if (!v.is_array()) return;
    // Most arrays hold objects or valid text: nothing to note, nothing made.
    if (std::none_of(v.begin(), v.end(), [](const Json& e) {
          return e.is_string() && !is_valid_utf8(e.template get_ref<const typename Json::string_t&>());
        }))
      return;
    Json list = Json::array();
    bool any = false;
    for (auto& e : v) {
      std::string exact;
      bool replaced = e.is_string() && replace(e, alongside ? &exact : nullptr);
      any |= replaced;
      list.push_back(replaced ? Json(exact) : Json());
    }
    if (any && alongside) members.emplace_back(json_bytes_member(key), std::move(list));
  }
};

// Every string of `root` made UTF-8, with the exact bytes alongside where
// asked. Iterative: a value's depth costs heap, never stack.
template <class Json>
void make_utf8(Json& root, JsonBytes bytes) {
  const bool alongside = bytes == JsonBytes::alongside;
  std::vector<Json*> stack{&root};
  while (!stack.empty()) {
    Json* v = stack.back();
    stack.pop_back();
    if (v->is_string()) {
      Sidecars<Json>::replace(*v, nullptr);
    } else if (v->is_array()) {
      for (auto& e : *v) stack.push_back(&e);
    } else if (v->is_object()) {
      Sidecars<Json> side;
      for (auto it = v->begin(); it != v->end(); ++it) side.member(it.key(), it.value(), alongside);
      // Added before the children are stacked: adding moves an ordered
      // object's members.
      for (auto& [key, value] : side.members) (*v)[key] = std::move(value);
      for (auto& child : *v)
        if (child.is_structured()) stack.push_back(&child);
    }
  }
}

template <class Json>
std::string text_of(Json value, JsonBytes bytes, int indent) {
  make_utf8(value, bytes);
  // replace: a key that is not UTF-8 (none of the tools' keys comes from a
  // workspace) still cannot make dump() throw.
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  if (all_ascii(text)) return true;
  for (std::size_t at = 0; at < text.size();) {
    Utf8Unit u = decode_utf8(text, at);
    if (!u.valid) return false;
    at += u.length;
  }
  return true;
}

std::string utf8_replaced(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    Utf8Unit u = decode_utf8(text, at);
    if (u.valid) out.append(text.substr(at, u.length));
    else out.append(kReplacement);
    at += u.length;
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  for (; i + 3 <= bytes.size(); i += 3) {
    std::uint32_t n = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    for (int s : {18, 12, 6, 0}) out.push_back(kBase64[(n >> s) & 0x3F]);
  }
  if (std::size_t rest = bytes.size() - i) {
    std::uint32_t n = (at(i) << 16) | (rest == 2 ? at(i + 1) << 8 : 0);
    out.push_back(kBase64[(n >> 18) & 0x3F]);
    out.push_back(kBase64[(n >> 12) & 0x3F]);
    out.push_back(rest == 2 ? kBase64[(n >> 6) & 0x3F] : '=');
    out.push_back('=');
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::size_t pad = 0;
    std::uint32_t n = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      char c = text[i + k];
      // '=' only as the last one or two characters of the text.
      if (c == '=' && i + 4 == text.size() && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++pad;
        n <<= 6;
        continue;
      }
      int v = base64_value(c);
      if (v < 0 || pad) return std::nullopt;
      n = (n << 6) | static_cast<std::uint32_t>(v);
    }
    out.push_back(static_cast<char>((n >> 16) & 0xFF));
    if (pad < 2) out.push_back(static_cast<char>((n >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(n & 0xFF));
  }
  return out;
}

std::string json_bytes_member(std::string_view key) { return std::string(key) + "_bytes"; }

std::string json_text(nlohmann::json value, JsonBytes bytes, int indent) {
  return text_of(std::move(value), bytes, indent);
}

nlohmann::ordered_json json_record(std::string_view type) {
  return nlohmann::ordered_json{{"type", std::string(type)}, {"version", kJsonRecordVersion}};
}

std::string json_text(nlohmann::ordered_json value, JsonBytes bytes, int indent) {
  return text_of(std::move(value), bytes, indent);
}

std::optional<std::string> json_text_member(const nlohmann::json& object, const std::string& key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  auto exact = object.find(json_bytes_member(key));
  if (exact == object.end()) return it->get<std::string>();
  if (!exact->is_string()) return std::nullopt;
  return base64_decode(exact->get_ref<const std::string&>());
}

std::optional<std::vector<std::string>> json_text_list_member(const nlohmann::json& object, const std::string& key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return std::nullopt;
  auto exact = object.find(json_bytes_member(key));
  if (exact != object.end() && (!exact->is_array() || exact->size() != it->size())) return std::nullopt;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const auto& text = (*it)[i];
    if (!text.is_string()) return std::nullopt;
    const nlohmann::json* raw = exact != object.end() ? &(*exact)[i] : nullptr;
    if (!raw || raw->is_null()) {
      out.push_back(text.get<std::string>());
      continue;
    }
    auto decoded = raw->is_string() ? base64_decode(raw->get_ref<const std::string&>()) : std::nullopt;
    if (!decoded) return std::nullopt;
    out.push_back(std::move(*decoded));
  }
  return out;
}

}  // namespace ws
