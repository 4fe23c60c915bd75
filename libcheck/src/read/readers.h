// The per-format readers behind read_definition (reader.cpp). Each fills
// `def` from bytes[begin, size): `begin` skips a UTF-8 byte order mark, and
// every span stays a position in the whole file.
#pragma once

#include <cstdint>
#include <string_view>

#include "json_values.h"
#include "line_index.h"
#include "libcheck/definition.h"
#include "libcheck/kinds.h"

namespace ws::detail {

void read_json(const Kind& kind, std::string_view bytes, std::uint32_t begin, Definition& def);
void read_markdown(const Kind& kind, std::string_view bytes, std::uint32_t begin, Definition& def);
void read_csharp(const Kind& kind, std::string_view bytes, std::uint32_t begin, const KindPack& pack,
                 Definition& def);

// The object each format reads a definition from, before its schema check:
// false, with a diagnostic in `def`, when there is none (a syntax error, a
// value that is not an object, no front matter). `lines` indexes `bytes`.
bool read_json_object(const Kind& kind, std::string_view bytes, std::uint32_t begin, const LineIndex& lines,
                      JsonDoc& doc, Definition& def);
bool read_front_matter_object(const Kind& kind, std::string_view bytes, std::uint32_t begin, const LineIndex& lines,
                              JsonDoc& doc, Definition& def);
// The C# header's `// key: value` lines as an object; returns the offset
// where the header ends (the body begins).
std::uint32_t read_csharp_header(std::string_view bytes, std::uint32_t begin, const LineIndex& lines, JsonDoc& doc,
                                 Definition& def);

// "the agent definition has no 'name' field", from the kind's name pointer.
std::string missing_name_message(const Kind& kind, std::string_view where);

}  // namespace ws::detail
