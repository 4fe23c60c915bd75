// `ws init` (ws(1), INIT): a repository becomes a workspace. What it writes,
// checked before anything is written.
#pragma once

#include <string>
#include <vector>

#include "libcheck/result.h"

namespace ws {

struct InitResult {
  std::string root;                  // the worktree's root, canonical, no trailing '/'
  std::string config;                // ".ws/config.json"
  std::vector<std::string> created;  // folders made, root-relative, each ending with '/', in order
  std::vector<std::string> kept;     // kind folders that were there already
};

// Makes `.ws/config.json` (the defaults: "{}") and a folder for each kind of
// the default kind pack (`kinds_dir`) in the worktree of the repository
// holding `dir`. git is never run: outside a repository, in a bare one, or at
// a refused root ("/", the home directory) it is Errc::environment. An
// existing .ws/config.json, or anything but a folder (a file, a link, a
// FIFO) where a folder goes, is Errc::refused, naming the path. Either all
// of it is written or nothing: folders made before a failure are removed.
Result<InitResult> init_workspace(const std::string& dir, const std::string& kinds_dir);

}  // namespace ws
