// Private to the compile: the fields a changed item's definition changed
// (DefinitionChange::fields), from the bytes of its two sides.
#pragma once

#include <string>
#include <vector>

#include "compile_internal.h"
#include "libcheck/view.h"
#include "libcheck/workspace.h"

namespace ws::compile_detail {

// The fields that differ between the base and view sides of `it`
// (read/definition_fields.h), each side's bytes read again as the build
// reads them: never a secret's (by path or by bytes), never past the size
// cap. Empty when a side is missing, of another kind, or not readable.
std::vector<std::string> item_changed_fields(const View& view, const WorkspaceConfig& config, const Item& it);

}  // namespace ws::compile_detail
