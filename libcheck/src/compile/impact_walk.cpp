// The transitive impact of a changeset (impact_walk.h): a breadth-first walk
// over the overlay's references, backwards, so each definition is found at
// its shortest distance from a changed name.
#include "impact_walk.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ws::compile_detail {

namespace {

using Key = std::pair<std::string, std::string>;  // (kind, name)
using NodeId = std::size_t;  // below base.size(): a base definition; else a changed item's view side
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

struct Node {
  std::string_view path;
  const Kind* kind = nullptr;
  RecordView rec;
};

// A name to find the referrers of: a changed one (from == kNone), or the
// name of a definition found at the level before.
struct Reach {
  Key key;
  std::size_t from = kNone;  // index in ImpactWalk::found_
  ReachedName root;
};

struct Found {
  NodeId id = 0;
  std::size_t parent = kNone;  // index in found_, kNone: it refers to `root`
  ReachedName root;
};

class ImpactWalk {
 public:
  ImpactWalk(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base, bool filter,
             const ImpactLimits& limits)
      : kinds_(kinds), items_(items), base_(base), limits_(limits) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& it = items[i];
      if (!it.changed) continue;
      if (filter) {
        changed_paths_.insert(it.entry->path);
        if (!it.entry->old_path.empty()) changed_paths_.insert(it.entry->old_path);
      }
      if (it.view.present && it.view.kind) overlay_.push_back(i);
    }
  }

  void run(const ReachedNames& reached, ChangeImpact& out) {
    std::vector<Reach> frontier;
    for (const auto& [key, what] : reached) frontier.push_back({key, kNone, {key.first, key.second, what}});
    for (std::size_t depth = 1; !frontier.empty(); ++depth) {
      frontier = one_per_new_key(std::move(frontier));
      std::set<Key> keys;
      for (const Reach& r : frontier) keys.insert(r.key);
      auto found = referrers(keys);
      if (depth > limits_.max_depth) {
        if (any_new(frontier, found)) out.truncated = ImpactTruncation::depth;
        break;
      }
      if (!take_level(frontier, found, out)) break;
    }
    emit(out);
  }

 private:
  // Definition `id`, looked at once: a base index checks a definition's
  // bytes each time it hands it out.
  const std::optional<Node>& node(NodeId id) const {
    auto [at, fresh] = nodes_.try_emplace(id);
    if (!fresh) return at->second;
    if (id < base_.size()) {
      auto d = base_.def(id);
      if (d && d->kind) at->second = Node{d->path, d->kind, d->rec};
    } else {
      const Side& v = items_[overlay_[id - base_.size()]].view;
      at->second = Node{v.path, v.kind, v.rec};
    }
    return at->second;
  }

  static std::optional<Key> key_of(const Node& n) {
    if (!n.rec.has_name()) return std::nullopt;
    return Key{n.kind->name, std::string(n.rec.name())};
  }

  // The frontier in (kind, name) order, one entry per name not walked yet
  // (the first: the one whose definition comes first in path order).
  std::vector<Reach> one_per_new_key(std::vector<Reach> frontier) {
    auto path_of = [&](const Reach& r) {
      if (r.from == kNone) return std::string_view();
      const auto& n = node(found_[r.from].id);
      return n ? n->path : std::string_view();
    };
    std::stable_sort(frontier.begin(), frontier.end(), [&](const Reach& a, const Reach& b) {
      if (a.key != b.key) return a.key < b.key;
      return path_of(a) < path_of(b);
    });
    std::vector<Reach> out;
    for (auto& r : frontier)
      if (walked_.insert(r.key).second) out.push_back(std::move(r));
    return out;
  }

  // The definitions with a reference to each of `keys`, in path order.
  std::map<Key, std::vector<NodeId>> referrers(const std::set<Key>& keys) const {
    std::map<Key, std::vector<NodeId>> out;
    std::set<std::string, std::less<>> names;
    for (const Key& k : keys) names.insert(k.second);
    auto scan = [&](NodeId id) {
      const auto& n = node(id);
      if (!n || (id < base_.size() && changed_paths_.count(n->path))) return;
      n->rec.for_each_ref_if([&](std::string_view name) { return names.count(name) != 0; },
                             [&](const RefView& ref) {
                               auto at = keys.find(Key{std::string(ref.target_kind), std::string(ref.name)});
                               if (at == keys.end()) return;
                               auto& list = out[*at];
                               if (list.empty() || list.back() != id) list.push_back(id);
                             });
    };
    if (base_.has_references()) {
      for (const Key& k : keys) {
        const Kind* kind = kinds_.by_name(k.first);
        if (!kind) continue;
        auto index = static_cast<std::size_t>(kind - kinds_.kinds().data());
        base_.referrers(index, k.second, [&](std::size_t d) {
          const auto& n = node(d);
          if (n && !changed_paths_.count(n->path)) out[k].push_back(d);
        });
      }
    } else {
      for (NodeId d = 0; d < base_.size(); ++d) scan(d);
    }
    for (std::size_t o = 0; o < overlay_.size(); ++o) scan(base_.size() + o);
    for (auto& [key, list] : out) {
      std::sort(list.begin(), list.end(), [&](NodeId a, NodeId b) { return node(a)->path < node(b)->path; });
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return out;
  }

  // Whether a referrer of the frontier is one not listed yet (so a walk
  // stopped there left definitions out).
  bool any_new(const std::vector<Reach>& frontier, const std::map<Key, std::vector<NodeId>>& found) const {
    for (const Reach& r : frontier) {
      auto at = found.find(r.key);
      if (at == found.end()) continue;
      for (NodeId id : at->second) {
        const auto& n = node(id);
        if (n && !seen_.count(id) && key_of(*n) != r.key) return true;
      }
    }
    return false;
  }

  // Lists the referrers of the frontier not listed yet and makes their names
  // the next frontier; false once the count limit stopped it.
  bool take_level(std::vector<Reach>& frontier, const std::map<Key, std::vector<NodeId>>& found, ChangeImpact& out) {
    std::vector<Reach> next;
    for (const Reach& r : frontier) {
      auto at = found.find(r.key);
      if (at == found.end()) continue;
      for (NodeId id : at->second) {
        const auto& n = node(id);
        if (!n || seen_.count(id)) continue;
        auto own = key_of(*n);
        if (own == r.key) continue;  // a reference to its own name
        if (found_.size() == limits_.max_definitions) {
          out.truncated = ImpactTruncation::definitions;
          return false;
        }
        seen_.insert(id);
        found_.push_back({id, r.from, r.root});
        if (own) next.push_back({std::move(*own), found_.size() - 1, r.root});
      }
    }
    frontier = std::move(next);
    return true;
  }

  void emit(ChangeImpact& out) const {
    for (const Found& f : found_) {
      const auto& n = node(f.id);
      if (!n) continue;
      ImpactedDefinition d;
      d.kind = n->kind->name;
      d.name = n->rec.has_name() ? std::string(n->rec.name()) : std::string();
      d.path = std::string(n->path);
      d.reaches = f.root;
      d.changed = f.id >= base_.size();
      for (std::size_t p = f.parent; p != kNone; p = found_[p].parent) {
        const auto& step = node(found_[p].id);
        if (step) d.through.push_back({step->kind->name, std::string(step->rec.name()), std::string(step->path)});
      }
      std::reverse(d.through.begin(), d.through.end());
      out.impacted.push_back(std::move(d));
    }
    std::stable_sort(out.impacted.begin(), out.impacted.end(), [](const ImpactedDefinition& a, const ImpactedDefinition& b) {
      if (a.through.size() != b.through.size()) return a.through.size() < b.through.size();
      return a.path < b.path;
    });
  }

  const KindPack& kinds_;
  const std::vector<Item>& items_;
  const BaseDefinitions& base_;
  const ImpactLimits& limits_;
  std::unordered_set<std::string_view> changed_paths_;
  std::vector<std::size_t> overlay_;  // changed items with a view side, by path
  std::set<Key> walked_;
  std::unordered_set<NodeId> seen_;
  std::vector<Found> found_;
  mutable std::unordered_map<NodeId, std::optional<Node>> nodes_;
};

}  // namespace

void walk_impact(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                 bool base_has_changed_paths, const ReachedNames& reached, const ImpactLimits& limits,
                 ChangeImpact& out) {
  out.limits = limits;
  ImpactWalk(kinds, items, base, base_has_changed_paths, limits).run(reached, out);
}

}  // namespace ws::compile_detail
