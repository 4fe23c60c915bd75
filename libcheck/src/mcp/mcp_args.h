// The arguments of one tool call (ws-mcp(1), TOOLS): read by name and
// type, the first thing wrong kept as the call's error, so a tool reads
// every argument and then asks once whether they were all right. A name the
// tool does not take is wrong too: an agent's typo is said, not ignored.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/result.h"

namespace ws::mcp::detail {

class Args {
 public:
  // `arguments` as the call sent them (absent: null); `known`, the names
  // the tool takes.
  Args(const nlohmann::json& arguments, std::initializer_list<const char*> known);

  // Absent: "" (text), {} (texts), false (flag), nullopt (count).
  std::string text(const char* key);
  std::string required_text(const char* key);
  // A text or a list of texts.
  std::vector<std::string> texts(const char* key);
  bool flag(const char* key);
  // A whole number from 0 (from 1 with `positive`).
  std::optional<std::size_t> count(const char* key, bool positive = false);

  const std::optional<Error>& error() const { return error_; }

 private:
  const nlohmann::json* find(const char* key) const;
  void wrong(const char* key, const char* what);

  const nlohmann::json& arguments_;
  std::optional<Error> error_;
};

}  // namespace ws::mcp::detail
