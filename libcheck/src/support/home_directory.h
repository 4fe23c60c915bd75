// The home directory, the one place the tools ask for it (ws(7), ENVIRONMENT).
#pragma once

#include <string>

namespace ws::detail {

// The home directory that is never a workspace root (ws(7), PATH POLICY):
// $HOME when it is set to an absolute path, else the home directory of the
// effective user in the password database (getpwuid_r), so an unset or
// empty HOME cannot turn the check off; "" only when neither gives one.
std::string home_directory();

// The home directory git and libgit2 read user configuration from
// (~/.gitconfig, ~/.config/git/): $HOME as it is set, "" when unset. Neither
// falls back to the password database, so the checks of the files they will
// read (git_files.h) must not either: a file there is never read by them.
std::string git_home_directory();

}  // namespace ws::detail
