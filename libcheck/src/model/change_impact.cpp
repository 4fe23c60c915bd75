#include "libcheck/change_impact.h"

#include <algorithm>

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

std::vector<const ImpactedDefinition*> ChangeImpact::through(const ImpactedDefinition& d) const {
  std::vector<const ImpactedDefinition*> out;
  // `via` is listed before the one that names it, so the walk ends.
  for (std::size_t at = d.via; at < impacted.size() && out.size() < d.depth; at = impacted[at].via)
    out.push_back(&impacted[at]);
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace ws
