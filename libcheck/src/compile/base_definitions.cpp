#include "base_definitions.h"

#include <algorithm>

namespace ws::compile_detail {

UnchangedItems::UnchangedItems(const KindPack& kinds, const std::vector<Item>& items,
                               const std::function<bool(const Item&)>& take)
    : kinds_(kinds), items_(items), by_kind_(kinds.kinds().size()) {
  std::vector<std::size_t> per_kind(by_kind_.size(), 0);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Side& v = items[i].view;
    if (!v.present || !v.kind || !take(items[i])) continue;
    numbers_.push_back(static_cast<std::uint32_t>(i));
    ++per_kind[static_cast<std::size_t>(v.kind - kinds.kinds().data())];
  }
  for (std::size_t k = 0; k < by_kind_.size(); ++k) by_kind_[k].reserve(per_kind[k]);
  for (std::size_t d = 0; d < numbers_.size(); ++d) {
    const Side& v = items[numbers_[d]].view;
    if (!v.rec.has_name()) continue;
    auto [at, fresh] = by_kind_[static_cast<std::size_t>(v.kind - kinds.kinds().data())].try_emplace(v.rec.name());
    if (fresh) at->second.first = static_cast<std::uint32_t>(d);
    else at->second.more.push_back(static_cast<std::uint32_t>(d));
  }
}

std::optional<BaseDefinitions::Def> UnchangedItems::def(std::size_t d) const {
  if (d >= numbers_.size()) return std::nullopt;
  const Side& v = items_[numbers_[d]].view;
  return Def{v.path, v.kind, v.rec, numbers_[d], v.kind->never_read};
}

std::optional<std::size_t> UnchangedItems::find_path(std::string_view path) const {
  auto at = std::lower_bound(numbers_.begin(), numbers_.end(), path,
                             [&](std::uint32_t i, std::string_view p) { return items_[i].view.path < p; });
  if (at == numbers_.end() || items_[*at].view.path != path) return std::nullopt;
  return static_cast<std::size_t>(at - numbers_.begin());
}

void UnchangedItems::owners(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const {
  if (kind >= by_kind_.size()) return;
  const Owners* o = by_kind_[kind].find(name);
  if (!o) return;
  f(o->first);
  for (std::uint32_t d : o->more) f(d);
}

void UnchangedItems::names(std::size_t kind, const std::function<void(std::string_view)>& f) const {
  if (kind >= by_kind_.size()) return;
  for (const auto& entry : by_kind_[kind]) f(entry.first);
}

void UnchangedItems::shared_names(const std::function<void(std::size_t kind, std::string_view name)>& f) const {
  for (std::size_t k = 0; k < by_kind_.size(); ++k)
    for (const auto& entry : by_kind_[k])
      if (!entry.second.more.empty()) f(k, entry.first);
}

}  // namespace ws::compile_detail
