// Count options (--max N, -m N, -A N, ...) of every tool: one parser, so
// that they all take the same numbers and refuse the rest in the same words
// (ws(7), OPTIONS).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "libcheck/result.h"

namespace wscli {

// A count: decimal digits only, within std::size_t. No sign, base prefix
// (0x10), exponent (1e3), space, suffix (5k) or empty value. An error names
// the option and the value: "invalid count '-1' for --max: write a
// non-negative decimal integer".
ws::Result<std::size_t> parse_count(std::string_view option, std::string_view value);

// Adds an option NAMES (CLI11 form, "-m,--max-count") taking a count into
// `target`; a bad value is a usage error (exit 2) from parse_count.
CLI::Option* add_count_option(CLI::App& app, const std::string& names, std::optional<std::size_t>& target,
                              const std::string& help);

}  // namespace wscli
