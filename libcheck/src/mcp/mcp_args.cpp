// A tool call's arguments (mcp_args.h).
#include "mcp_args.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "printable_path.h"

namespace ws::mcp::detail {

using nlohmann::json;

Args::Args(const json& arguments, std::initializer_list<const char*> known) : arguments_(arguments) {
  if (arguments.is_null()) return;
  if (!arguments.is_object()) {
    error_ = make_error(Errc::usage, "invalid arguments: they must be a JSON object", {}, Rule::none);
    return;
  }
  for (const auto& [key, value] : arguments.items()) {
    bool taken = std::any_of(known.begin(), known.end(), [&](const char* k) { return key == k; });
    if (taken) continue;
    std::string names;
    for (const char* k : known) names += std::string(names.empty() ? "" : ", ") + k;
    error_ = make_error(Errc::usage,
                        "unknown argument '" + ws::detail::printable_path(key) + "'; this tool takes " + names,
                        key, Rule::none);
    return;
  }
}

const json* Args::find(const char* key) const {
  if (!arguments_.is_object()) return nullptr;
  auto it = arguments_.find(key);
  return it == arguments_.end() || it->is_null() ? nullptr : &*it;
}

void Args::wrong(const char* key, const char* what) {
  if (!error_) error_ = make_error(Errc::usage, std::string("invalid argument '") + key + "': " + what, key, Rule::none);
}

std::string Args::text(const char* key) {
  const json* v = find(key);
  if (!v) return {};
  if (!v->is_string()) {
    wrong(key, "it must be a string");
    return {};
  }
  return v->get<std::string>();
}

std::string Args::required_text(const char* key) {
  if (!find(key)) wrong(key, "it is required");
  return text(key);
}

std::vector<std::string> Args::texts(const char* key) {
  const json* v = find(key);
  if (!v) return {};
  if (v->is_string()) return {v->get<std::string>()};
  std::vector<std::string> out;
  if (v->is_array() && std::all_of(v->begin(), v->end(), [](const json& e) { return e.is_string(); })) {
    for (const json& e : *v) out.push_back(e.get<std::string>());
    return out;
  }
  wrong(key, "it must be a string or a list of strings");
  return {};
}

bool Args::flag(const char* key) {
  const json* v = find(key);
  if (!v) return false;
  if (!v->is_boolean()) {
    wrong(key, "it must be true or false");
    return false;
  }
  return v->get<bool>();
}

std::optional<std::size_t> Args::count(const char* key, bool positive) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  std::uint64_t n = 0;
  if (v->is_number_unsigned()) n = v->get<std::uint64_t>();
  else if (!v->is_number_integer() || v->get<std::int64_t>() < 0) n = std::numeric_limits<std::uint64_t>::max();
  if (n == std::numeric_limits<std::uint64_t>::max() || (positive && n == 0)) {
    wrong(key, positive ? "it must be a whole number from 1" : "it must be a whole number from 0");
    return std::nullopt;
  }
  return static_cast<std::size_t>(n);
}

}  // namespace ws::mcp::detail
