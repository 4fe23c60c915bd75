// An editor's unsaved buffers as one more layer of a view (ws-lsp(1)): the
// working tree's view with the bytes of the open files in place of the
// disk's, so a build, a listing or a rename sees what the editor shows.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "libcheck/result.h"
#include "libcheck/workspace.h"

namespace ws {

// The bytes of files open in an editor, by root-relative path.
using Buffers = std::map<std::string, std::string, std::less<>>;

// The view of `ws` with its entries for `buffers` taken from them: a path
// the base has becomes modified (unchanged when the bytes are the base's),
// one it lacks added; the other entries are kept as they are. A buffer the
// view may not hold as a definition is left out: a path under '.secrets/',
// '.git/' or '.ws/' (configuration is read from the base, never from an
// editor), a path the view holds as a link. A view, not a workspace: the
// caller puts it in its own Workspace, whose kind pack the base's index and
// every kind a reader gives point into (compile.h).
Result<View> with_buffers(const Workspace& ws, const Buffers& buffers);

// Whether `path` is one an editor's buffer may stand in for (see above).
bool is_overlay_path(std::string_view path);

}  // namespace ws
