// Private to the compile (compile.cpp reads, compile_check.cpp resolves).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "compile_record.h"
#include "libcheck/compile.h"
#include "libcheck/kinds.h"
#include "libcheck/view.h"

namespace ws::compile_detail {

// One side of a view entry: the definition the base held there, or the one
// the view holds.
struct Side {
  const Kind* kind = nullptr;
  std::string_view path;  // into the view entry; the base side of a rename is at the old path
  RecordView rec;
  bool present = false;  // read: `rec` is the definition
};

struct Item {
  const ViewEntry* entry = nullptr;
  bool changed = false;
  bool in_scope = false;  // matches the pathspecs (either path of a rename)
  bool checked = false;   // its view side is compiled: in scope, and changed or --all
  Side base;              // unchanged entries: the same as view
  Side view;              // deleted entries: absent
};

class BaseDefinitions;

// Duplicate names, references of checked items against the overlay, include
// cycles (include_cycles.h), and
// unchanged definitions broken by what the changeset removed. Appends to
// `out`. The overlay is the view sides of the changed items among `items`
// and the definitions of `base` (base_definitions.h), which stand for the
// unchanged ones: with `base_has_changed_paths` (an index of the whole base
// commit) those at a path an item changed are left out. With `all`, the checked items among
// `items` that `base` names by item number are checked too. When
// base.damaged() is true afterwards, `out` may be wrong.
void check_symbols(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                   bool base_has_changed_paths, bool all, std::vector<Diagnostic>& out);

// "agent", "node type", "AI tool": a kind name as prose.
std::string kind_label(std::string_view kind);

}  // namespace ws::compile_detail
