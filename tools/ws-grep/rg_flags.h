// The flags of ws-grep that rg and grep users type without thinking
// (ws-grep(1)): -L, --files, -g, -H/-I and -s, and the rule rg gives flags
// that override each other: the last one given wins.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "libcheck/grep.h"
#include "libcheck/result.h"

namespace wsgrep {

struct RgFlags {
  bool files_without_match = false;  // -L
  bool list_files = false;           // --files
  std::vector<std::string> globs;    // -g, in order
  bool with_filename = false;        // -H
  bool no_filename = false;          // -I
  bool case_sensitive = false;       // -s
};

void add_rg_flags(CLI::App& app, RgFlags& f);

// Of the options named (each by one of its names), the one given last on
// the command line, by that name; empty when none was given.
std::string last_given(const CLI::App& app, std::initializer_list<const char*> names);

// Applies the flags to `g`, whose mode, ignore_case and patterns main has
// set from the other flags: -L against -l and -s against -i by which came
// last, --files over every mode, the -g globs parsed (a bad one is a usage
// error naming it).
ws::Status apply_rg_flags(const CLI::App& app, const RgFlags& f, ws::GrepOptions& g);

}  // namespace wsgrep
