// How the tools read their command line (ws(7), OPTIONS): every option takes
// exactly the values it says, one per occurrence and as written ("[a,b]" or a
// pattern "[^a]" is one value, never a list); an option with an optional
// value takes it only after '='; an unknown option is named, with the
// closest known one ("did you mean '--changed'?"); an argument no positional
// takes is refused.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "libcheck/result.h"

namespace wscli {

// CLI11's application, keeping the arguments it did not place (unknown
// options, positional arguments past what a positional option takes at
// once) with what they looked like, for settle_arguments().
class App : public CLI::App {
 public:
  // As CLI::App's; its --help shows an option with an optional value as
  // "--base [=REV]".
  explicit App(std::string description = "", std::string name = "");

  struct Leftovers {
    std::vector<std::string> unknown_options;  // "--chnged", "-x", "--chnged=value"
    std::vector<std::string> positionals;      // in command-line order
  };
  Leftovers leftovers() const;
};

// Before parsing: each option takes one value per occurrence, as written, and
// what no option takes is kept for settle_arguments() instead of failing the
// parse.
void prepare_exact_arguments(App& app);

// After parsing: gives the leftover positional arguments to the app's
// positional option (in order, as written); an unknown option or an argument
// no positional option takes is a usage error naming it.
ws::Status settle_arguments(App& app);

}  // namespace wscli
