#include "libcheck/change_impact.h"

namespace ws {

const char* definition_change_name(DefinitionChangeKind k) {
  switch (k) {
    case DefinitionChangeKind::added: return "added";
    case DefinitionChangeKind::removed: return "removed";
    case DefinitionChangeKind::renamed: return "renamed";
    case DefinitionChangeKind::modified: return "modified";
  }
  return "modified";
}

const char* impact_truncation_name(ImpactTruncation t) {
  switch (t) {
    case ImpactTruncation::none: return "none";
    case ImpactTruncation::definitions: return "definitions";
    case ImpactTruncation::depth: return "depth";
  }
  return "none";
}

}  // namespace ws
