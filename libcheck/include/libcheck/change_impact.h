// The definitions a changeset affects (ws-apply --show, ws-build --impact
// and the plan of --json): what it adds, removes, renames and modifies, the
// unchanged definitions whose references reach one of those names, and
// every definition whose references reach one directly or through others
// (ws-build(1), IMPACT). The compile works it out from the definitions it
// reads (compile/change_impact.cpp); the proposal review returns it.
#pragma once

#include <cstddef>
#include <string>
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

// A definition on the way from a changed name to an impacted definition.
struct ImpactStep {
  std::string kind;
  std::string name;
  std::string path;
};

// A definition whose references reach a changed name, directly (`through`
// empty: it refers to `reaches`) or through other definitions: `through`
// lists them from the one that refers to `reaches` to the one this refers
// to. The path is a shortest one. A definition of the changeset itself is
// impacted too when its own new references reach another changed name.
struct ImpactedDefinition {
  std::string kind;
  std::string name;
  std::string path;
  ReachedName reaches;
  std::vector<ImpactStep> through;
  bool changed = false;  // itself a change of the changeset
  std::size_t depth() const { return through.size() + 1; }
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
  std::vector<ImpactedDefinition> impacted;  // by depth, then path
  // Which limit stopped the walk; `limits` says the bounds it had.
  ImpactTruncation truncated = ImpactTruncation::none;
  ImpactLimits limits;
};

}  // namespace ws
