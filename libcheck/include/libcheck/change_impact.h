// The definitions a changeset affects (ws-apply --show, ws-build --impact
// and the plan of --json): what it adds, removes, renames and modifies, the
// unchanged definitions whose references reach one of those names, and
// every definition whose references reach one directly or through others
// (ws-build(1), IMPACT). The compile works it out from the definitions it
// reads (compile/change_impact.cpp); the proposal review returns it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

enum class DefinitionChangeKind { added, removed, renamed, modified };
const char* definition_change_name(DefinitionChangeKind k);  // "added", ...

// One changed definition. A definition is a kind and a name; one that moves
// to another kind is removed and added. A file renamed with its name kept is
// modified, with `old_path`.
struct DefinitionChange {
  DefinitionChangeKind change = DefinitionChangeKind::modified;
  std::string kind;
  std::string name;      // the name now; removed: the name it had (empty: a file without one)
  std::string old_name;  // renamed: the name before
  std::string path;      // the file now; removed: the file it was
  std::string old_path;  // the file before, when it moved
  // renamed, modified: the top-level fields of the definition (JSON object,
  // front matter, C# header) whose values differ between the two sides,
  // sorted, then "body" when the text after a C# header or a front matter
  // differs (ws-build(1), IMPACT). Empty for a secret and for a side too
  // large or not readable.
  std::vector<std::string> fields;
};

// A name a referrer reaches, and what the changeset did to it.
struct ReachedName {
  std::string kind;
  std::string name;
  DefinitionChangeKind change = DefinitionChangeKind::modified;
};

// An unchanged definition with a reference to a name the changeset adds,
// removes, renames away or modifies.
struct Referrer {
  std::string kind;
  std::string name;
  std::string path;
  std::vector<ReachedName> reaches;  // sorted, each once
};

// A definition whose references reach a changed name, directly or through
// other definitions. The path is a shortest one, kept as a tree: `via` is
// the impacted definition this one refers to on it (always listed before
// it), kNone when it refers to the changed name itself. A changeset that
// touches a popular name reaches much of a workspace, along long shared
// paths, so each path is stored once (ChangeImpact::through spells one
// out). A definition of the changeset itself is impacted too when its own
// new references reach another changed name. Its kind, name and path are
// views of bytes ChangeImpact::impacted_bytes keeps: ten thousand
// definitions make no twenty thousand strings.
struct ImpactedDefinition {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::string_view kind;
  std::string_view name;  // empty: a file without one
  std::string_view path;
  std::size_t reaches = 0;  // the changed name: an index in ChangeImpact::reached
  std::size_t via = kNone;  // an index in ChangeImpact::impacted
  std::size_t depth = 1;    // references on its path: 1 when it refers to the changed name
  bool changed = false;     // itself a change of the changeset
};

// The bounds of the transitive walk: past them the list stops and says so.
struct ImpactLimits {
  std::size_t max_definitions = 10000;
  std::size_t max_depth = 32;  // references on a path
};

enum class ImpactTruncation { none, definitions, depth };
const char* impact_truncation_name(ImpactTruncation t);  // "none", "definitions", "depth"

struct ChangeImpact {
  std::vector<DefinitionChange> changes;  // by path
  std::vector<Referrer> referrers;        // by path
  std::vector<ReachedName> reached;       // the names the changes involve, by (kind, name)
  std::vector<ImpactedDefinition> impacted;  // by depth, then path
  // What keeps the bytes `impacted` views, shared by copies: the views stay
  // valid while a ChangeImpact holding them lives. A block of its own, and
  // the saved index of the base when the build read one: the paths and
  // names of unchanged definitions are viewed there, where they are.
  std::shared_ptr<const void> impacted_bytes;
  // Which limit stopped the walk; `limits` says the bounds it had.
  ImpactTruncation truncated = ImpactTruncation::none;
  ImpactLimits limits;

  // The definitions on d's path, from the one that refers to the changed
  // name to the one `d` refers to: empty when d refers to it directly.
  std::vector<const ImpactedDefinition*> through(const ImpactedDefinition& d) const;
};

}  // namespace ws
