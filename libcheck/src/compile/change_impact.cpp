// The definitions a changeset affects (change_impact.h): each changed
// item's two sides compared, then the unchanged definitions whose
// references reach one of the names involved — the reverse direction the
// base index keeps (base_index.h), or a read of every reference without it.
#include "change_impact.h"

#include "impact_walk.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_set>

namespace ws::compile_detail {

namespace {

using Change = DefinitionChangeKind;

// A side's name; empty when it was not read or carries none.
std::string name_of(const Side& s) { return s.present && s.rec.has_name() ? std::string(s.rec.name()) : std::string(); }

// What one changed item does to definitions: a side routed to a kind is a
// definition (read or not: one too large to read is still one), and one
// that changes kind is removed and added.
void item_changes(const Item& it, std::vector<DefinitionChange>& out,
                  const std::function<std::vector<std::string>(const Item&)>& fields) {
  const Side& b = it.base;
  const Side& v = it.view;
  if (b.kind && v.kind && b.kind == v.kind) {
    DefinitionChange c;
    c.kind = v.kind->name;
    c.name = name_of(v);
    c.path = std::string(v.path);
    if (b.path != v.path) c.old_path = std::string(b.path);
    std::string before = name_of(b);
    if (!before.empty() && !c.name.empty() && before != c.name) {
      c.change = Change::renamed;
      c.old_name = std::move(before);
    } else {
      c.change = Change::modified;
      if (c.name.empty()) c.name = std::move(before);
    }
    if (fields) c.fields = fields(it);
    out.push_back(std::move(c));
    return;
  }
  if (b.kind) out.push_back({Change::removed, b.kind->name, name_of(b), {}, std::string(b.path), {}});
  if (v.kind) out.push_back({Change::added, v.kind->name, name_of(v), {}, std::string(v.path), {}});
}

// (kind, name) of every name the changes involve, and what happened to it:
// a name removed in one file and added in another moved, so it is modified.
using Reached = ReachedNames;

Reached reached_names(const std::vector<DefinitionChange>& changes) {
  Reached out;
  auto note = [&](const std::string& kind, const std::string& name, Change what) {
    if (name.empty()) return;
    auto [at, fresh] = out.try_emplace({kind, name}, what);
    if (!fresh && at->second != what) at->second = Change::modified;
  };
  for (const auto& c : changes) {
    if (c.change == Change::renamed) {
      note(c.kind, c.old_name, Change::renamed);
      note(c.kind, c.name, Change::added);
    } else {
      note(c.kind, c.name, c.change);
    }
  }
  return out;
}

class ReferrerScan {
 public:
  ReferrerScan(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base, bool filter,
               const Reached& reached)
      : kinds_(kinds), base_(base), reached_(reached) {
    if (filter)
      for (const auto& it : items) {
        if (!it.changed) continue;
        changed_paths_.insert(it.entry->path);
        if (!it.entry->old_path.empty()) changed_paths_.insert(it.entry->old_path);
      }
    for (const auto& [key, what] : reached_) names_.insert(key.second);
  }

  std::vector<Referrer> run() const {
    std::vector<Referrer> out;
    if (reached_.empty()) return out;
    if (base_.has_references()) {
      std::set<std::size_t> defs;
      for (const auto& [key, what] : reached_) {
        const Kind* k = kinds_.by_name(key.first);
        if (!k) continue;
        std::size_t kind = static_cast<std::size_t>(k - kinds_.kinds().data());
        base_.referrers(kind, key.second, [&](std::size_t d) { defs.insert(d); });
      }
      for (std::size_t d : defs) look_at(d, out);
    } else {
      for (std::size_t d = 0; d < base_.size(); ++d) look_at(d, out);
    }
    std::sort(out.begin(), out.end(), [](const Referrer& a, const Referrer& b) { return a.path < b.path; });
    return out;
  }

 private:
  void look_at(std::size_t d, std::vector<Referrer>& out) const {
    auto def = base_.def(d);
    if (!def || !def->kind || changed_paths_.count(def->path)) return;
    std::set<std::pair<std::string, std::string>> seen;
    Referrer r;
    def->rec.for_each_ref_if([&](std::string_view name) { return names_.count(name) != 0; },
                             [&](const RefView& ref) {
                               auto at = reached_.find(std::make_pair(std::string(ref.target_kind), std::string(ref.name)));
                               if (at == reached_.end() || !seen.insert(at->first).second) return;
                               r.reaches.push_back({at->first.first, at->first.second, at->second});
                             });
    if (r.reaches.empty()) return;
    r.kind = def->kind->name;
    r.name = def->rec.has_name() ? std::string(def->rec.name()) : std::string();
    r.path = std::string(def->path);
    out.push_back(std::move(r));
  }

  const KindPack& kinds_;
  const BaseDefinitions& base_;
  const Reached& reached_;
  std::unordered_set<std::string_view> changed_paths_;
  std::set<std::string, std::less<>> names_;
};

}  // namespace

ChangeImpact change_impact(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                           bool base_has_changed_paths, const ImpactLimits& limits,
                           const std::function<std::vector<std::string>(const Item&)>& fields,
                           bool with_referrers) {
  ChangeImpact out;
  for (const auto& it : items)
    if (it.changed) item_changes(it, out.changes, fields);
  Reached reached = reached_names(out.changes);
  if (with_referrers) out.referrers = ReferrerScan(kinds, items, base, base_has_changed_paths, reached).run();
  walk_impact(kinds, items, base, base_has_changed_paths, reached, limits, out);
  return out;
}

}  // namespace ws::compile_detail
