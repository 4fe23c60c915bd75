// A change to the workspace's own folder, .ws/, is a policy change (ws(7),
// POLICY CHANGES): ws-commit says so, `ws-apply --show` shows it first, and
// ws-apply lands it only when asked to (--allow-policy-change). A change to
// the kinds or the config is built as --all, since any definition may break.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/diagnostic.h"
#include "libcheck/file_stat.h"
#include "libcheck/view.h"

namespace ws {

// True for .ws/ and everything under it, in any letter case (a case-folding
// checkout would write ".WS/x" into .ws/).
bool is_policy_path(std::string_view path);

// The policy paths among `paths`, sorted, once each.
std::vector<std::string> policy_paths_among(std::vector<std::string> paths);
// The policy paths among `files` (new and old paths of renames), sorted, once each.
std::vector<std::string> policy_paths(const std::vector<FileStat>& files);

// `paths` as messages name them: "'a', 'b'", each printable (control
// characters escaped).
std::string quoted_path_list(const std::vector<std::string>& paths);

// The lines `ws-apply --show` prints before anything else for a proposal
// that changes `paths` (not empty), each ending with a newline.
std::string policy_change_banner(const std::vector<std::string>& paths);

// Why a build of `view` must check every definition: its changed kind
// manifests and config, as "'.ws/kinds/agent.json' changed: checking every
// definition"; empty when it changes neither.
std::string every_definition_reason(const View& view);

// The .ws/config.json a change proposes, checked as the base will read it
// once the change lands: a WS019 diagnostic when it is invalid, else nullopt.
// `entry` is the view's changed .ws/config.json.
std::optional<Diagnostic> proposed_config_diagnostic(const View& view, const ViewEntry& entry);

}  // namespace ws
