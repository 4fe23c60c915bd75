// "did you mean 'Triage'?": the closest known name to a misspelt one.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ws {

// Edit distance with adjacent transpositions (Damerau–Levenshtein, optimal
// string alignment variant), counting bytes. Stops early and returns a value
// above `limit` once the distance is known to exceed it.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit);

// The largest distance worth suggesting for a name of `length` bytes:
// max(2, length / 3), so short names allow two typos and long ones more.
std::size_t suggestion_limit(std::size_t length);

// Collects candidates one by one and keeps the closest within the limit; ties
// go to the bytewise smaller name so the answer does not depend on order.
class Suggester {
 public:
  explicit Suggester(std::string_view wanted);
  ~Suggester();
  void consider(std::string_view candidate);
  std::optional<std::string> best() const;

 private:
  std::string wanted_;
  std::size_t limit_;
  std::size_t best_distance_;
  std::string best_;
  bool found_ = false;
  std::unique_ptr<struct EditRows> rows_;  // scratch space, reused for every candidate
};

}  // namespace ws
