#include "common/count_option.h"

#include <charconv>

#include <fmt/core.h>

namespace wscli {

ws::Result<std::size_t> parse_count(std::string_view option, std::string_view value) {
  auto bad = [&](const char* why) {
    return ws::make_error(ws::Errc::usage, fmt::format("invalid count '{}' for {}: {}", value, option, why),
                          std::string(value), ws::Rule::count);
  };
  for (char c : value)
    if (c < '0' || c > '9') return bad("write a non-negative decimal integer");
  if (value.empty()) return bad("write a non-negative decimal integer");
  std::size_t n = 0;
  auto r = std::from_chars(value.data(), value.data() + value.size(), n);
  if (r.ec == std::errc::result_out_of_range) return bad("too large");
  return n;
}

CLI::Option* add_count_option(CLI::App& app, const std::string& names, std::optional<std::size_t>& target,
                              const std::string& help) {
  // The long name, for messages: "-m,--max-count" -> "--max-count".
  std::string shown = names.substr(names.rfind(',') == std::string::npos ? 0 : names.rfind(',') + 1);
  return app
      .add_option_function<std::string>(
          names,
          [&target, shown](const std::string& value) {
            auto n = parse_count(shown, value);
            if (!n) throw CLI::ValidationError(n.error().message);
            target = *n;
          },
          help)
      ->type_name("N");
}

}  // namespace wscli
