#include "libcheck/path_route.h"

#include "libcheck/path_policy.h"

namespace ws {

namespace {

std::string_view top_folder(std::string_view path) {
  std::size_t slash = path.find('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
}

// The kind whose folder holds `path` (the deepest one), else a kind whose
// folder lies under the same top-level folder ("access/" holds
// access/groups/ and access/grants/); `found` tells whether either exists.
const Kind* kind_folder_of(const KindPack& kinds, std::string_view path, bool& found) {
  const Kind* holding = nullptr;
  found = false;
  std::string_view top = top_folder(path);
  for (const Kind& k : kinds.kinds()) {
    if (k.dir.empty() || top.empty() || k.dir.compare(0, top.size(), top) != 0) continue;
    found = true;
    if (path.compare(0, k.dir.size(), k.dir) == 0 && (!holding || k.dir.size() > holding->dir.size())) holding = &k;
  }
  return holding;
}

// Files every repository has beside its definitions: README, LICENSE,
// CODEOWNERS and the like at the root, tool folders such as .github/, and
// the documentation under docs/.
bool is_repository_file(std::string_view path) {
  std::string_view top = top_folder(path);
  return top.empty() || top.front() == '.' || top == "docs/";
}

// git reads these in every folder: they are git's, not a kind's, even in a
// kind's folder.
bool is_git_folder_file(std::string_view path) {
  std::size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return name == ".gitignore" || name == ".gitattributes";
}

}  // namespace

PathRoute route_path(const KindPack& kinds, const WorkspaceConfig& config, std::string_view path) {
  if (is_workspace_config_path(path)) return {PathRole::config, nullptr};
  bool misnamed = false;
  if (const Kind* kind = kinds.route(path, &misnamed)) return {PathRole::definition, kind};
  if (misnamed) return {PathRole::misnamed, nullptr};
  if (is_secret_path(path)) return {PathRole::misfit, kinds.secret_kind()};
  if (is_ignored_path(config.ignore, path)) return {PathRole::ignored, nullptr};
  if (is_git_folder_file(path)) return {PathRole::not_definition, nullptr};
  bool kind_tree = false;
  const Kind* holding = kind_folder_of(kinds, path, kind_tree);
  if (kind_tree) return {PathRole::misfit, holding};
  if (is_repository_file(path)) return {PathRole::not_definition, nullptr};
  return {PathRole::unrouted, nullptr};
}

bool is_not_definition(const KindPack& kinds, const WorkspaceConfig& config, std::string_view path) {
  PathRole role = route_path(kinds, config, path).role;
  return role == PathRole::not_definition || role == PathRole::ignored;
}

}  // namespace ws
