// The one table of rule names (libcheck/result.h). The names are
// user-visible: path and file rules appear in refusal messages (ws(7), PATH
// POLICY), so a name never changes once given.
#include "libcheck/result.h"

namespace ws {

const char* rule_name(Rule rule) {
  switch (rule) {
    case Rule::none: return "";
    case Rule::empty: return "empty";
    case Rule::unc_prefix: return "unc-prefix";
    case Rule::drive_prefix: return "drive-prefix";
    case Rule::absolute: return "absolute";
    case Rule::dot_component: return "dot-component";
    case Rule::backslash: return "backslash";
    case Rule::control_char: return "control-char";
    case Rule::git_dir: return "git-dir";
    case Rule::secret: return "secret";
    case Rule::protected_path: return "protected-path";
    case Rule::too_long: return "too-long";
    case Rule::symlink: return "symlink";
    case Rule::special_file: return "special-file";
    case Rule::hard_link: return "hard-link";
    case Rule::too_large: return "too-large";
    case Rule::not_found: return "not-found";
    case Rule::io: return "io";
    case Rule::mount_point: return "mount-point";
    case Rule::submodule: return "submodule";
    case Rule::outside_root: return "outside-root";
    case Rule::pathspec: return "pathspec";
    case Rule::glob: return "glob";
    case Rule::pattern: return "pattern";
    case Rule::symbol: return "symbol";
    case Rule::count: return "count";
    case Rule::reason: return "reason";
    case Rule::not_a_folder: return "not-a-folder";
    case Rule::exists: return "exists";
    case Rule::malformed_tree: return "malformed-tree";
    case Rule::empty_folder: return "empty-folder";
    case Rule::missing_object: return "missing-object";
    case Rule::object_type: return "object-type";
    case Rule::entry_name: return "entry-name";
    case Rule::mode: return "mode";
    case Rule::duplicate_name: return "duplicate-name";
    case Rule::tree_order: return "tree-order";
    case Rule::policy_change: return "policy-change";
    case Rule::locked: return "locked";
    case Rule::distinct_approver: return "distinct-approver";
    case Rule::record_exists: return "record-exists";
    case Rule::interrupted_apply: return "interrupted-apply";
    case Rule::running: return "running";
    case Rule::checked_out_elsewhere: return "checked-out-elsewhere";
    case Rule::staged: return "staged";
    case Rule::content_changed: return "content-changed";
    case Rule::token: return "token";
    case Rule::not_a_definition: return "not-a-definition";
  }
  return "unknown";
}

}  // namespace ws
