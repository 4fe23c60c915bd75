#include "libcheck/closest_name.h"

#include "suggest.h"

namespace ws {

std::optional<std::string> closest_name(std::string_view wanted, const std::vector<std::string>& known) {
  Suggester s(wanted);
  for (const auto& k : known) s.consider(k);
  return s.best();
}

}  // namespace ws
