// Private to the compile: the definitions a changeset affects
// (libcheck/change_impact.h), from the items a build read.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base_definitions.h"
#include "compile_internal.h"
#include "libcheck/change_impact.h"
#include "libcheck/kinds.h"

namespace ws::compile_detail {

// The changed items' definitions, and the unchanged definitions of `base`
// whose references reach a name of one of them: through base.referrers()
// when `base` keeps who refers to what (the index of a base commit), else by
// reading every reference of every definition it holds. With
// `base_has_changed_paths`, the definitions of `base` at a path an item
// changed are not unchanged and are left out.
// `fields`, when given, says which fields of a changed item's definition
// differ (DefinitionChange::fields); the definitions impacted directly and
// transitively are walked within `limits` (impact_walk.h). Without
// `with_referrers`, ChangeImpact::referrers is left empty.
ChangeImpact change_impact(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                           bool base_has_changed_paths, const ImpactLimits& limits = {},
                           const std::function<std::vector<std::string>(const Item&)>& fields = {},
                           bool with_referrers = true);

}  // namespace ws::compile_detail
