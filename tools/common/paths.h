// git's path habits for every tool that takes pathspecs (ws(7), PATHSPECS):
// pathspecs relative to the current folder (-C DIR included), ':/' for the
// root; human output relative to it; JSON and -z output root-relative.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/cli.h"
#include "libcheck/pathspec.h"
#include "libcheck/workspace.h"

namespace wscli {

// Where the tool stands in `w`: its -C DIR, else the current folder.
ws::PathPrefix path_prefix(const ws::Workspace& w, const CommonOptions& o);

// `args` parsed against `prefix`; on a refused pathspec, its one line on
// stderr, `exit_code` set and nullopt.
std::optional<std::vector<ws::Pathspec>> parse_pathspecs_or_report(const char* tool,
                                                                   const std::vector<std::string>& args,
                                                                   const ws::PathPrefix& prefix, int& exit_code);

// Prints the one "did not match" line (ws::unmatched_pathspec) for each of
// `specs` at the indices `unmatched`, the implicit current folder
// excepted; returns kExitUsage if it printed any, else kExitOk.
int report_unmatched(const char* tool, const std::vector<ws::Pathspec>& specs,
                     const std::vector<std::size_t>& unmatched);

}  // namespace wscli
