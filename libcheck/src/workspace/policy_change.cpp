// Policy changes: which paths of a change are the workspace's policy, what
// ws-apply says about them, and why a build of such a change checks every
// definition (ws(7), POLICY CHANGES).
#include "libcheck/policy_change.h"

#include <algorithm>

#include "printable_path.h"
#include "libcheck/path_policy.h"
#include "libcheck/workspace.h"

namespace ws {

namespace {

constexpr const char* kPolicyFolder = ".ws/";

void sort_unique(std::vector<std::string>& paths) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
}

}  // namespace

std::string quoted_path_list(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& p : paths) out += (out.empty() ? "'" : ", '") + detail::printable_path(p) + "'";
  return out;
}

bool is_policy_path(std::string_view path) {
  // The protected-path rule's matching: case-insensitive, and the folder's
  // own name too (a file ".ws" would replace the folder).
  static const PathPolicy policy{false, {kPolicyFolder}};
  return breaks_rule(PathRule::protected_path, path, policy);
}

std::vector<std::string> policy_paths_among(std::vector<std::string> paths) {
  paths.erase(std::remove_if(paths.begin(), paths.end(),
                             [](const std::string& p) { return p.empty() || !is_policy_path(p); }),
              paths.end());
  sort_unique(paths);
  return paths;
}

std::vector<std::string> policy_paths(const std::vector<FileStat>& files) {
  std::vector<std::string> paths;
  for (const auto& f : files) {
    paths.push_back(f.path);
    paths.push_back(f.old_path);
  }
  return policy_paths_among(std::move(paths));
}

std::string policy_change_banner(const std::vector<std::string>& paths) {
  std::string out = "=== policy change: ws-apply applies this proposal only with --allow-policy-change ===\n";
  for (const auto& p : paths) out += "    " + detail::printable_path(p) + "\n";
  return out;
}

std::string every_definition_reason(const View& view) {
  std::vector<std::string> paths;
  for (const ViewEntry* e : view.changes())
    for (const std::string* p : {&e->path, &e->old_path})
      if (*p == ".ws/config.json" || is_kind_manifest_path(*p)) paths.push_back(*p);
  if (paths.empty()) return {};
  sort_unique(paths);
  return quoted_path_list(paths) + " changed: checking every definition";
}

std::optional<Diagnostic> proposed_config_diagnostic(const View& view, const ViewEntry& entry) {
  // A link is refused as one wherever it is (WS017).
  if (is_link_mode(entry.mode)) return std::nullopt;
  auto text = view.read(entry);
  if (!text) return make_file_diag(DiagCode::workspace_config, entry.path, text.error().message);
  auto parsed = parse_workspace_config(*text);
  if (parsed) return std::nullopt;
  return make_file_diag(DiagCode::workspace_config, entry.path, parsed.error().message);
}

}  // namespace ws
