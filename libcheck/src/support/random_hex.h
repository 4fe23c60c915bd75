// Unguessable names: session names and one-time tokens (ws-mcp(1)).
#pragma once

#include <cstddef>
#include <string>

namespace ws::detail {

// `bytes` bytes from the kernel's random source (getrandom), as 2*bytes
// lower-case hex digits. Blocks only until the kernel's pool is ready,
// early at boot.
std::string random_hex(std::size_t bytes);

}  // namespace ws::detail
