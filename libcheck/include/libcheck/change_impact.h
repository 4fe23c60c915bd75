// The definitions a changeset affects (ws-apply --show): what it adds,
// removes, renames and modifies, and the unchanged definitions whose
// references reach one of those names. The compile works it out from the
// definitions it reads (compile/change_impact.cpp); the proposal review
// returns it.
#pragma once

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

struct ChangeImpact {
  std::vector<DefinitionChange> changes;  // by path
  std::vector<Referrer> referrers;        // by path
};

}  // namespace ws
