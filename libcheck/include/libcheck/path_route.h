// What a path of a view is to the tools: a definition of some kind,
// workspace configuration, or a file that is not a definition, and whether
// ws-build reports it. The one place that decides it (ws(7), DEFINITIONS).
#pragma once

#include <string_view>

#include "libcheck/kinds.h"
#include "libcheck/workspace.h"

namespace ws {

enum class PathRole {
  definition,      // a kind reads it (the secret kind included)
  config,          // workspace configuration (is_workspace_config_path)
  not_definition,  // a root-level file, or under a top-level dot-folder or docs/: silent
  ignored,         // named by the base config's "ignore" globs: silent
  misfit,          // in a kind's folder tree (or under .secrets/), but no kind reads it: an error
  misnamed,        // in a kind's folder, its name not UTF-8: refused (WS004), whatever "unrouted" says
  unrouted,        // under a top-level folder no kind uses: as the "unrouted" setting says
};

struct PathRoute {
  PathRole role = PathRole::unrouted;
  // definition: the kind that reads it; misfit: the kind whose folder holds
  // it, if one does, else null.
  const Kind* kind = nullptr;
};

// In this order: configuration; a kind's file, or one of a kind's folder
// whose name is not UTF-8 (misnamed); under .secrets/ (misfit: no
// glob or folder rule reaches a secret's folder); the "ignore" globs; a
// .gitignore or .gitattributes in any folder (not a definition: git's); in
// the folder tree of a kind (misfit); root-level files, top-level
// dot-folders and docs/ (not definitions); anything else is unrouted.
PathRoute route_path(const KindPack& kinds, const WorkspaceConfig& config, std::string_view path);

// A file no kind reads that ws-build never reports (not_definition or
// ignored: README.md, LICENSE, .github/, docs/, the "ignore" globs): the
// listings label it "none", any other file no kind reads "unrouted".
bool is_not_definition(const KindPack& kinds, const WorkspaceConfig& config, std::string_view path);

}  // namespace ws
