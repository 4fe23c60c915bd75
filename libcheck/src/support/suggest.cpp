// Written for this project rather than taken from a library: it is twenty
// lines, and what counts as "close" (bytes, transpositions, the limit) is a
// product decision we want to see in one place.
#include "suggest.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace ws {

// The dynamic-programming rows, kept by the caller so that scanning a
// hundred thousand names allocates nothing per name.
struct EditRows {
  std::vector<std::size_t> prev2, prev, cur;
};

namespace {

std::size_t distance(std::string_view a, std::string_view b, std::size_t limit, EditRows& rows) {
  std::size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  // Three rows of the table: two back for transpositions.
  auto& [prev2, prev, cur] = rows;
  prev2.assign(m + 1, 0);
  prev.resize(m + 1);
  cur.assign(m + 1, 0);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    std::size_t row_min = cur[0];
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d = std::min(d, prev2[j - 2] + 1);
      cur[j] = d;
      row_min = std::min(row_min, d);
    }
    if (row_min > limit) return limit + 1;  // every later row is at least this
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  EditRows rows;
  return distance(a, b, limit, rows);
}

std::size_t suggestion_limit(std::size_t length) { return std::max<std::size_t>(2, length / 3); }

Suggester::Suggester(std::string_view wanted)
    : wanted_(wanted), limit_(suggestion_limit(wanted.size())), best_distance_(limit_ + 1),
      rows_(std::make_unique<EditRows>()) {}

Suggester::~Suggester() = default;

void Suggester::consider(std::string_view candidate) {
  if (candidate == wanted_ || candidate.empty()) return;
  std::size_t d = distance(wanted_, candidate, std::min(limit_, best_distance_), *rows_);
  // A distance as large as the name itself is a different name, not a typo
  // ("Bo" is not a misspelling of "Al").
  if (d > limit_ || d >= wanted_.size()) return;
  if (!found_ || d < best_distance_ || (d == best_distance_ && candidate < best_)) {
    best_distance_ = d;
    best_ = std::string(candidate);
    found_ = true;
  }
}

std::optional<std::string> Suggester::best() const {
  if (!found_) return std::nullopt;
  return best_;
}

}  // namespace ws
