// "did you mean '--changed'?": the closest of a few known names to a
// misspelt one, for callers outside the library (the tools' option parser).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

// The name of `known` closest to `wanted` within the suggestion limit of the
// library's own "did you mean" (edit distance with transpositions, at most
// max(2, length / 3)); ties go to the bytewise smaller name. nullopt when
// none is close enough.
std::optional<std::string> closest_name(std::string_view wanted, const std::vector<std::string>& known);

}  // namespace ws
