// ws-apply's policy-change gate (policy_change_gate.h): the policy paths and
// their wording come from the workspace layer (libcheck/policy_change.h).
#include "policy_change_gate.h"

#include "libcheck/policy_change.h"

namespace ws {

Status refuse_policy_change(const std::vector<proposal::TreeChange>& changes, bool allowed, const std::string& id) {
  if (allowed) return Ok{};
  std::vector<std::string> paths;
  for (const auto& c : changes) paths.push_back(c.path);
  paths = policy_paths_among(std::move(paths));
  if (paths.empty()) return Ok{};
  return make_error(Errc::refused,
                    "proposal " + proposal::short_id(id) + " refused: policy change to " + quoted_path_list(paths) +
                        "; review it with --show, then apply it with --allow-policy-change",
                    id, Rule::policy_change);
}

Status refuse_by_policy_of(const std::vector<proposal::TreeChange>& changes, const WorkspaceConfig& config,
                           const std::string& id) {
  for (const auto& c : changes) {
    std::uint32_t mode = c.status == GIT_DELTA_DELETED ? std::uint32_t{GIT_FILEMODE_BLOB} : c.new_mode;
    if (auto why = proposal::refuse_entry(c.path, mode, config.protected_paths))
      return make_error(Errc::refused, "proposal " + proposal::short_id(id) + " refused: " + *why, c.path);
  }
  return Ok{};
}

}  // namespace ws
