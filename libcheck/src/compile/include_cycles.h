// Include cycles (WS025): the references a kind's manifest marks "acyclic"
// (a prompt's includes; ws(7), KINDS) must form no cycle in the overlay.
#pragma once

#include <vector>

#include "base_definitions.h"
#include "compile_internal.h"

namespace ws::compile_detail {

// Appends WS025 for each definition on a cycle of acyclic references that
// the build reports: a checked one, or an unchanged one on a cycle through a
// changed definition in scope (the change closed it), at its reference that
// starts the cycle, with the cycle spelled by name. The overlay is as for
// check_symbols (compile_internal.h), with `filter` its
// `base_has_changed_paths`. Iterative, linear in the definitions the
// changed ones reach, but for the spelling of a cycle that is not a simple
// loop (one search per definition reported on it).
void check_include_cycles(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                          bool filter, bool all, std::vector<Diagnostic>& out);

}  // namespace ws::compile_detail
