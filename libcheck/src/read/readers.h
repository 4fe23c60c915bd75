// The per-format readers behind read_definition (reader.cpp). Each fills
// `def` from bytes[begin, size): `begin` skips a UTF-8 byte order mark, and
// every span stays a position in the whole file.
#pragma once

#include <cstdint>
#include <string_view>

#include "libcheck/definition.h"
#include "libcheck/kinds.h"

namespace ws::detail {

void read_json(const Kind& kind, std::string_view bytes, std::uint32_t begin, Definition& def);
void read_markdown(const Kind& kind, std::string_view bytes, std::uint32_t begin, Definition& def);
void read_csharp(const Kind& kind, std::string_view bytes, std::uint32_t begin, const KindPack& pack,
                 Definition& def);

// "the agent definition has no 'name' field", from the kind's name pointer.
std::string missing_name_message(const Kind& kind, std::string_view where);

}  // namespace ws::detail
