// Private to the compile: the definitions a changeset affects
// (libcheck/change_impact.h), from the items a build read.
#pragma once

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
ChangeImpact change_impact(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                           bool base_has_changed_paths);

}  // namespace ws::compile_detail
