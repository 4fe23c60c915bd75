// Path policy: named reject rules combined into per-use policies.
//
// Every path entering the library (argument, tree entry, working-tree entry)
// is checked here before it is used. Paths are repository-relative,
// '/'-separated and normalised; anything else is refused, never repaired.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcheck/result.h"

namespace ws {

// Listed in the order check_path tries them: the more specific prefix rules
// come before the generic ones they overlap ("//server" is also absolute,
// "\\?\C:" also has backslashes) so that the message names the real problem.
enum class PathRule {
  empty,           // ""
  unc_prefix,      // "\\server", "//server", "\\?\"
  drive_prefix,    // "C:" and friends
  absolute,        // leading '/'
  dot_component,   // "." or ".." component, or an empty component ("a//b", trailing '/')
  backslash,       // '\' anywhere
  control_char,    // NUL, bytes < 0x20, DEL
  git_dir,         // ".git" in any spelling git refuses: case, trailing dots/spaces, "git~1", ".git:stream"
  secret,          // under ".secrets/", in any spelling is_secret_path names, where the policy does not allow it
  protected_path,  // a prefix the workspace protects (.ws/config.json "protected")
  too_long,        // over 4096 bytes, a component over 255, or over kMaxPathDepth components
};

// The most components a path may have. Every walk of a tree stops at this
// depth too, so a hand-made tree nested deeper is refused, never followed
// down to the end of the stack (ws(7), PATH POLICY).
inline constexpr int kMaxPathDepth = 256;

// What every walk of a tree says on reaching kMaxPathDepth: the folder there
// holds `path` (the folder's path and the name of its first entry), more
// components than the cap allows, refused by the rule too_long (ws(7), PATH
// POLICY). The walk stops there, so a hostile tree nested without end costs
// no more than the cap's worth of work.
Error depth_cap_error(std::string path, Errc code = Errc::invalid);

// The rule as an Error carries it (libcheck/result.h says why PathRule stays
// its own enum).
Rule to_rule(PathRule rule);
// Stable, kebab-case name of a rule, as printed in messages ("dot-component"):
// rule_name(to_rule(rule)).
const char* path_rule_name(PathRule rule);

struct PathRejection {
  PathRule rule;
  std::string path;
  // One line; control characters in the path are shown escaped. E.g.
  // "refused path 'a/../b': dot-component ('.' and '..' are not allowed); name the file by its plain repository-relative path"
  std::string message() const;
};

struct PathPolicy {
  bool allow_secret_names = false;        // listing a secret's name (never its content)
  // Each ends with '/' for a directory, else names an exact file; a leading
  // "**/" matches it in every folder ("**/.gitattributes"). Case-insensitive.
  std::vector<std::string> protected_prefixes;
};

// Policies per use. read: tools reading a view. write: anything written to the
// branch or the working tree. proposal: a proposal's tree entries.
PathPolicy read_policy();
PathPolicy write_policy(std::vector<std::string> extra_protected = {});
PathPolicy proposal_policy(std::vector<std::string> extra_protected = {});

// Returns the first rule `path` breaks, in the order the enum lists them.
std::optional<PathRejection> check_path(std::string_view path, const PathPolicy& policy);

// check_path for many paths in path order (a listing of the view): the
// folder of the last path found plain is kept, so a path in it has only its
// own name's bytes looked at (is_plain_path). Same answers as check_path.
class PathChecker {
 public:
  explicit PathChecker(PathPolicy policy) : policy_(std::move(policy)) {}
  std::optional<PathRejection> check(std::string_view path);
  // Whether the path check() was last given is plain (is_plain_path).
  bool last_plain() const { return plain_; }

 private:
  PathPolicy policy_;
  std::string folder_;     // "a/b/" of the last plain path, "" for the root
  int folder_depth_ = -1;  // its components; -1 before the first plain path
  bool plain_ = false;
};

// Whether `path` breaks that one rule under `policy` (check_path asks each
// rule in turn; tests ask one).
bool breaks_rule(PathRule rule, std::string_view path, const PathPolicy& policy);

// True for a path check_path can settle at one pass over its bytes: '/'-
// separated non-empty components of ASCII letters, digits, '_', '-' and
// '.', none starting with '.', within the length limits. Such a path
// breaks no rule but, where a policy has them, its protected prefixes.
bool is_plain_path(std::string_view path);

namespace detail {
// is_secret_path for a path whose first byte may begin a spelling of the
// secrets folder (path_policy.cpp); only is_secret_path calls it.
bool is_secret_path_spelled(std::string_view path);
}  // namespace detail

// The one answer to "is this path a secret?" (ws(7), the secret kind): true
// for content under the top-level '.secrets/' folder in every spelling that
// names that folder on a file system that folds names, as git's
// protectNTFS and protectHFS do for '.git': case ('.SECRETS/x'), trailing
// dots and spaces ('.secrets. /x'), NTFS 8.3 short names ('SECRET~1/x',
// 'se1f2e~1/x'), NTFS streams ('.secrets::$INDEX_ALLOCATION/x', and
// '.secrets:x' itself, stored with the folder) and HFS+'s ignorable code
// points ('.sec\u200crets/x'). The rule `secret` refuses exactly these. The
// folder's name alone ('.secrets', 'SECRET~1') is not content. Every
// question of whether a path's bytes may be opened, shown, paired or
// measured asks this function; none asks a kind manifest.
//
// Every plain name of a workspace is settled at its first byte, here,
// without a call (every path of a view asks, several times): only '.', 's'
// or 'S' (the short names) and the lead bytes of HFS+'s ignorable code
// points, 0xE2 and 0xEF, can begin a spelling of the folder.
inline bool is_secret_path(std::string_view path) {
  if (path.empty()) return false;
  const auto first = static_cast<unsigned char>(path.front());
  if (first != '.' && (first | 0x20) != 's' && first != 0xE2 && first != 0xEF) return false;
  return detail::is_secret_path_spelled(path);
}

// True when one path component names the secrets folder (or a stream of it)
// in such a spelling.
bool is_secret_folder(std::string_view component);

// True when `component` names the git directory in a spelling git refuses
// (".git", ".GIT", ".git.", ".git ", "git~1", ".git::$INDEX_ALLOCATION",
// ".g\u200cit" for HFS+, ...).
bool is_git_dir_component(std::string_view component);

}  // namespace ws
