// The change the gate tests make to the example workspace: the billing agent
// renamed to Payments, first in its own file only, which leaves its three
// referrers broken, then in the referrers too.
#pragma once

#include <string>
#include <vector>

namespace wstest {

// One edit of a file: its first `from` replaced with `to`.
struct Replacement {
  std::string path;
  std::string from;
  std::string to;
};

// The rename in the agent's own file.
extern const std::vector<Replacement> kRenameBilling;
// The referrers following it: with kRenameBilling, the whole rename.
extern const std::vector<Replacement> kFollowBillingRename;

// ws-build's diagnostics for kRenameBilling alone, clang style, each line
// ending in '\n', without the summary line.
extern const std::string kHalfRenameDiagnostics;

}  // namespace wstest
