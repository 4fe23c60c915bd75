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

}  // namespace ws
