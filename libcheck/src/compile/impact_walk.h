// Private to the compile: the definitions whose references reach a changed
// name, directly and through others (ChangeImpact::impacted), with the path
// of references of each (ws-build(1), IMPACT).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base_definitions.h"
#include "compile_internal.h"
#include "libcheck/change_impact.h"
#include "libcheck/kinds.h"

namespace ws::compile_detail {

// (kind, name) of every name a changeset involves, and what it did to it
// (change_impact.cpp).
using ReachedNames = std::map<std::pair<std::string, std::string>, DefinitionChangeKind, std::less<>>;

// Walks the overlay backwards from `reached`, a level of references at a
// time: the definitions of `base` (those at a path an item changed left out
// with `base_has_changed_paths`), through its reverse table when it keeps
// one, else by reading their references once a level; and the view sides of
// the changed items, whose own new references count (the overlay). A
// definition is listed once, with the first shortest path found: the levels
// are walked in (kind, name) order of the names reached, the referrers of
// one name in path order. A cycle ends where it meets a definition already
// listed. Past limits.max_definitions definitions, or a path longer than
// limits.max_depth with more to find, the walk stops and out.truncated says
// which.
void walk_impact(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                 bool base_has_changed_paths, const ReachedNames& reached, const ImpactLimits& limits,
                 ChangeImpact& out);

}  // namespace ws::compile_detail
