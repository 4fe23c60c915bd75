// The rules a team tunes in .ws/config.json (ws(7), RULES): a level per
// diagnostic code ("rules"), codes that are off under some paths
// ("rule_paths"), and whether an inline suppression must give a reason
// ("require_suppression_reason"). Like the rest of the config they are read
// from the base commit, never from the change being checked.
#pragma once

#include <utility>
#include <vector>

#include "libcheck/diagnostic.h"
#include "libcheck/ignore_glob.h"

namespace ws {

// What "rules" may set a code to: off drops its diagnostics, the others
// replace its severity.
enum class RuleLevel { off, note, warning, error };

struct RulePathsOff {
  DiagCode code;
  std::vector<IgnoreGlob> globs;  // gitignore patterns, as "ignore" takes them
};

struct RuleConfig {
  std::vector<std::pair<DiagCode, RuleLevel>> levels;  // "rules", one entry per code
  std::vector<RulePathsOff> paths_off;                 // "rule_paths", one entry per code
  bool require_suppression_reason = false;
};

}  // namespace ws
