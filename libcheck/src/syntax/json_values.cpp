#include "json_values.h"

namespace ws::detail {

std::string pointer_token(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> out;
  if (pointer.empty()) return out;
  std::size_t i = 1;  // skip the leading '/'
  for (;;) {
    std::size_t next = pointer.find('/', i);
    std::string_view raw = pointer.substr(i, next == std::string_view::npos ? next : next - i);
    std::string token;
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '~' && k + 1 < raw.size()) {
        token += raw[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        token += raw[k];
      }
    }
    out.push_back(std::move(token));
    if (next == std::string_view::npos) break;
    i = next + 1;
  }
  return out;
}

bool is_valid_pointer(std::string_view pointer) {
  if (pointer.empty()) return true;
  if (pointer.front() != '/') return false;
  for (std::size_t i = 0; i < pointer.size(); ++i) {
    if (pointer[i] != '~') continue;
    if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return false;
  }
  return true;
}

namespace {

// An array index token: digits without a leading zero ("0" itself is fine).
bool as_index(const std::string& token, std::size_t& index) {
  if (token.empty() || token.size() > 9) return false;
  if (token.size() > 1 && token[0] == '0') return false;
  index = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

const nlohmann::json* step(const nlohmann::json& v, const std::string& token) {
  if (v.is_object()) {
    auto it = v.find(token);
    return it == v.end() ? nullptr : &*it;
  }
  std::size_t index = 0;
  if (v.is_array() && as_index(token, index) && index < v.size()) return &v[index];
  return nullptr;
}

}  // namespace

const nlohmann::json* value_at(const nlohmann::json& root, std::string_view pointer) {
  const nlohmann::json* v = &root;
  for (const std::string& token : pointer_tokens(pointer)) {
    v = step(*v, token);
    if (!v) return nullptr;
  }
  return v;
}

std::vector<std::string> expand_pointer(const nlohmann::json& root, std::string_view pattern) {
  struct Partial {
    const nlohmann::json* value;
    std::string pointer;
  };
  std::vector<Partial> current{{&root, ""}};
  for (const std::string& token : pointer_tokens(pattern)) {
    std::vector<Partial> next;
    for (const Partial& p : current) {
      if (token == "*") {
        if (!p.value->is_array()) continue;
        for (std::size_t i = 0; i < p.value->size(); ++i)
          next.push_back({&(*p.value)[i], p.pointer + "/" + std::to_string(i)});
      } else if (const nlohmann::json* v = step(*p.value, token)) {
        next.push_back({v, p.pointer + "/" + pointer_token(token)});
      }
    }
    current = std::move(next);
  }
  std::vector<std::string> out;
  out.reserve(current.size());
  for (Partial& p : current) out.push_back(std::move(p.pointer));
  return out;
}

std::string display_path(const nlohmann::json& root, std::string_view pointer) {
  std::string out;
  const nlohmann::json* v = &root;
  for (const std::string& token : pointer_tokens(pointer)) {
    if (v && v->is_array()) {
      out += "[" + token + "]";
    } else {
      if (!out.empty()) out += '.';
      out += token;
    }
    v = v ? step(*v, token) : nullptr;
  }
  return out;
}

}  // namespace ws::detail
