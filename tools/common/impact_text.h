// ws-build --impact's report (ws-build(1), IMPACT): each impacted
// definition with its path of references. Names and paths come from the
// workspace, so every one is shown terminal-safe (ws(7), TERMINAL OUTPUT).
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "libcheck/change_impact.h"

namespace wscli {

// "Impact:" and a line per impacted definition,
//   "  agent 'A' (agents/a.json): agent 'C' (renamed) <- agent 'B' <- agent 'A'"
// ("none" when there is none), then a line saying which limit stopped the
// walk, if one did; ends with a blank line; written to `out`. `shown_path`
// gives a path as the tool prints paths (from the current folder); empty:
// as it is.
void write_impact_text(std::ostream& out, const ws::ChangeImpact& impact,
                       const std::function<std::string(const std::string&)>& shown_path);

}  // namespace wscli
