// Errors as values: every fallible libcheck call returns Result<T> or Status.
// The library never prints, exits or throws for user errors.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ws {

// What went wrong, coarsely, so a tool can map it to an exit status.
enum class Errc {
  usage,        // bad argument or option value (exit 2)
  environment,  // repository, root, install or I/O trouble (exit 2)
  refused,      // a rule refused the request: path policy, stale proposal... (exit 1)
  not_found,    // a named thing (revision, proposal, path) does not exist
  invalid,      // input exists but is malformed
};

// Every named rule an Error can carry, so a caller asks "was it the size
// cap?" by value, never by parsing a string. The path policy (PathRule,
// path_policy.h) and confined file access (FileRule, workspace_root.h) keep
// their own enums: each layer's switch over its rules stays exhaustive
// without a default, and check_path tries PathRule in its listed order.
// Each converts to this one with to_rule. rule_name gives the kebab-case
// name shown in messages (ws(7), PATH POLICY); no other table of names exists.
enum class Rule {
  none,
  // The path policy (PathRule), in its order.
  empty, unc_prefix, drive_prefix, absolute, dot_component, backslash, control_char, git_dir, secret,
  protected_path, too_long,
  // Confined file access (FileRule).
  symlink, special_file, hard_link, too_large, not_found, io, mount_point,
  // A tree entry a view never reads as a file: a gitlink.
  submodule,
  // Arguments: pathspecs, globs, patterns, symbols, counts, reasons.
  outside_root, pathspec, glob, pattern, symbol, count, reason,
  // ws-init's target folder.
  not_a_folder, exists,
  // A proposal's tree that git would not write (proposal_canonical.h).
  malformed_tree, empty_folder, missing_object, object_type, entry_name, mode, duplicate_name, tree_order,
  // Staging, approving and applying a proposal.
  policy_change, locked, distinct_approver, record_exists, interrupted_apply, running, checked_out_elsewhere,
  staged,
  // Writing one file by what it is expected to hold (ws-mcp(1) write, delete).
  content_changed, token, not_a_definition,
};

// The rule's stable kebab-case name ("dot-component", "too-large"); "" for none.
const char* rule_name(Rule rule);

struct Error {
  Errc code = Errc::environment;
  std::string message;  // one line, lower-case start, no full stop; names the input
  std::string subject;  // the offending input (path, revision, id), may be empty
  Rule rule = Rule::none;  // the named rule that refused it (symlink, too_large), if any
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}      // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;

inline Error make_error(Errc code, std::string message, std::string subject = {},
                        Rule rule = Rule::none) {
  return Error{code, std::move(message), std::move(subject), rule};
}

}  // namespace ws
