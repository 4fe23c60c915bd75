// Readers: from the bytes of one file of a kind, the definition it holds.
// Never crashes or hangs on malformed, binary, non-UTF-8, huge or deeply
// nested input: such input yields diagnostics.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "libcheck/definition.h"
#include "libcheck/kinds.h"

namespace ws {

// Reads `bytes` as a definition of `kind` at `path`. Dispatches on kind.format.
// An opaque kind (secret) is never read: only its name, from the file name.
Definition read_definition(const Kind& kind, std::string_view path, std::string_view bytes,
                           const KindPack& pack);

// The syntax classes of a file's bytes, sorted by start, non-overlapping;
// bytes in no range are plain text (Markdown bodies, C# header lines are comments).
std::vector<ClassRange> classify_syntax(Format format, std::string_view bytes);

// Validates UTF-8 and the absence of NUL bytes; on failure returns a WS002 at
// the first offending byte.
bool check_encoding(std::string_view path, std::string_view bytes, std::vector<Diagnostic>& out);

// The length of a leading UTF-8 byte order mark of `bytes`: 3, or 0 when
// there is none. Readers and --in skip it; ws-grep does not count it as
// text of line 1 (ws-grep(1)).
inline std::size_t bom_length(std::string_view bytes) { return bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; }

// Position (1-based line, byte column) of byte `offset` in `bytes`.
Position position_at(std::string_view bytes, std::uint32_t offset);

}  // namespace ws
