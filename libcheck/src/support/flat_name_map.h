// A map from names (string_views into records that outlive it) to values,
// by open addressing over one array: no allocation per name. The compile
// keeps one per kind with every definition's name, 100,000 of them in a
// large workspace, where std::unordered_map's node per name and its hash
// were a tenth of a warm build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace ws::detail {

template <class V>
class FlatNameMap {
 public:
  void reserve(std::size_t n) {
    entries_.reserve(n);
    if (2 * n > slots_.size()) rehash(2 * n);
  }

  // The value for `name`, default-made if new; true when it was new.
  std::pair<std::pair<std::string_view, V>*, bool> try_emplace(std::string_view name) {
    if (2 * (entries_.size() + 1) > slots_.size()) rehash(2 * (entries_.size() + 1));
    std::uint32_t tag = tag_of(name);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.index == 0) {
        entries_.emplace_back(name, V{});
        s = Slot{tag, static_cast<std::uint32_t>(entries_.size())};
        return {&entries_.back(), true};
      }
      if (s.tag == tag && entries_[s.index - 1].first == name) return {&entries_[s.index - 1], false};
    }
  }

  V* find(std::string_view name) {
    return const_cast<V*>(static_cast<const FlatNameMap&>(*this).find(name));
  }
  const V* find(std::string_view name) const {
    if (slots_.empty()) return nullptr;
    std::uint32_t tag = tag_of(name);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = tag & mask; slots_[i].index != 0; i = (i + 1) & mask)
      if (slots_[i].tag == tag && entries_[slots_[i].index - 1].first == name) return &entries_[slots_[i].index - 1].second;
    return nullptr;
  }

  // In insertion order.
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t index = 0;  // entry + 1; 0: empty
  };
  static std::uint32_t tag_of(std::string_view name) {
    std::uint64_t h = XXH3_64bits(name.data(), name.size());
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }
  void rehash(std::size_t capacity) {
    std::size_t size = 16;
    while (size < capacity) size *= 2;
    slots_.assign(size, Slot{});
    std::size_t mask = size - 1;
    for (std::size_t e = 0; e < entries_.size(); ++e) {
      std::uint32_t tag = tag_of(entries_[e].first);
      std::size_t i = tag & mask;
      while (slots_[i].index != 0) i = (i + 1) & mask;
      slots_[i] = Slot{tag, static_cast<std::uint32_t>(e + 1)};
    }
  }

  std::vector<std::pair<std::string_view, V>> entries_;
  std::vector<Slot> slots_;  // a power of two, at most half full
};

}  // namespace ws::detail
