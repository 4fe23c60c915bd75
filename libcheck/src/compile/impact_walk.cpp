// The transitive impact of a changeset (impact_walk.h): a breadth-first walk
// over the overlay's references, backwards, so each definition is found at
// its shortest distance from a changed name.
//
// A changeset that touches a popular name reaches half a workspace, so the
// walk works on numbers (docs/architecture.md, "Impact"): a definition is a
// number (the base's, then the changed items' view sides), a name is a kind
// number and a view of its bytes, each definition is looked at once, and
// the bytes of the result are copied at the end, once each, into one block.
#include "impact_walk.h"

#include "flat_name_map.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ws::compile_detail {

namespace {

using NodeId = std::size_t;  // below base.size(): a base definition; else a changed item's view side
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

constexpr std::uint32_t kNoNumber = BaseDefinitions::kNoNumber;

// A name: its kind (an index in the kind pack), its bytes, which live in
// the base, a record or the names reached, all of which outlive the walk,
// and its number in the base (BaseDefinitions::number_of), which every
// name a base definition carries has: two names are one when their
// numbers are, and a numbered name is never an unnumbered one.
struct Name {
  std::size_t kind = 0;
  std::string_view name;
  std::uint32_t number = kNoNumber;
  bool operator==(const Name& o) const {
    if (number != kNoNumber || o.number != kNoNumber) return number == o.number;
    return kind == o.kind && name == o.name;
  }
};

struct NameHash {
  std::size_t operator()(const Name& n) const {
    return std::hash<std::string_view>()(n.name) ^ (n.kind * 0x9e3779b97f4a7c15ull);
  }
};

// What the walk shows of a definition (BaseDefinitions::Named): its
// record's references are read through the base index's reverse table, or
// for a changed item from its item.
using Node = BaseDefinitions::Named;

// A name to find the referrers of: a changed one (from == kNone), or the
// name of a definition found at the level before.
struct Reach {
  Name name;
  std::size_t from = kNone;  // index in ImpactWalk::found_
  std::size_t root = 0;      // index in ImpactWalk::roots_
};

struct Found {
  NodeId id = 0;
  std::size_t parent = kNone;  // index in found_, kNone: it refers to its root
  std::size_t root = 0;
};

// A reference of a changed item's view side, to find it by name.
struct OverlayRef {
  Name name;
  NodeId id = 0;
};

class ImpactWalk {
 public:
  ImpactWalk(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base, bool filter,
             const ImpactLimits& limits)
      : kinds_(kinds), items_(items), base_(base), limits_(limits), kind_rank_(kinds.kinds().size()),
        overlay_named_(kinds.kinds().size()), walked_(kinds.kinds().size()),
        walked_numbers_(base.name_numbers(), kNone), overlay_numbers_(base.name_numbers(), false) {
    rank_kinds();
    std::vector<std::size_t> changed_in_base;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& it = items[i];
      if (!it.changed) continue;
      if (filter) {
        for (const std::string* path : {&it.entry->path, &it.entry->old_path})
          if (auto d = path->empty() ? std::nullopt : base.find_path(*path)) changed_in_base.push_back(*d);
      }
      if (it.view.present && it.view.kind) overlay_.push_back(i);
    }
    changed_in_base_.assign(base.size(), false);
    for (std::size_t d : changed_in_base) changed_in_base_[d] = true;
    nodes_.resize(base.size() + overlay_.size());
    state_.assign(nodes_.size(), State::unknown);
    seen_.assign(nodes_.size(), false);
    listed_.resize(nodes_.size());
    index_overlay_refs();
    rank_overlay();
  }

  void run(const ReachedNames& reached, ChangeImpact& out) {
    std::vector<Reach> frontier;
    for (const auto& [key, what] : reached) {
      const Kind* kind = kinds_.by_name(key.first);
      if (!kind) continue;  // no definition can refer to it
      roots_.push_back({key.first, key.second, what});
      frontier.push_back({numbered(kind_number(kind), key.second), kNone, roots_.size() - 1});
    }
    for (std::size_t depth = 1; !frontier.empty(); ++depth) {
      frontier = one_per_new_name(frontier);
      find_referrers(frontier);
      if (depth > limits_.max_depth) {
        if (any_new(frontier)) out.truncated = ImpactTruncation::depth;
        break;
      }
      if (!take_level(frontier, out)) break;
    }
    emit(out);
  }

 private:
  enum class State : std::uint8_t { unknown, usable, left_out };

  std::size_t kind_number(const Kind* k) const { return static_cast<std::size_t>(k - kinds_.kinds().data()); }

  // A name not read from a base definition, with its number in the base.
  Name numbered(std::size_t kind, std::string_view name) const { return {kind, name, base_.number_of(kind, name)}; }

  // The kinds in name order: levels are walked in (kind name, name) order.
  void rank_kinds() {
    std::vector<std::size_t> order(kind_rank_.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    const auto& all = kinds_.kinds();
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return all[a].name < all[b].name; });
    for (std::size_t r = 0; r < order.size(); ++r) kind_rank_[order[r]] = r;
  }

  // Every reference of the changed items' view sides, by name, so a level
  // finds the ones that name what it reaches without reading them again.
  void index_overlay_refs() {
    for (std::size_t o = 0; o < overlay_.size(); ++o) {
      NodeId id = base_.size() + o;
      const Node* n = node(id);
      if (!n) continue;
      items_[overlay_[o]].view.rec.for_each_ref([&](const RefView& ref) {
        if (const Kind* k = kinds_.by_name(ref.target_kind))
          overlay_refs_.push_back({numbered(kind_number(k), ref.name), id});
      });
    }
    std::sort(overlay_refs_.begin(), overlay_refs_.end(), [](const OverlayRef& a, const OverlayRef& b) {
      if (a.name.kind != b.name.kind) return a.name.kind < b.name.kind;
      if (a.name.name != b.name.name) return a.name.name < b.name.name;
      return a.id < b.id;
    });
    for (std::size_t at = 0; at < overlay_refs_.size(); ++at) {
      const Name& name = overlay_refs_[at].name;
      auto [range, fresh] = overlay_named_[name.kind].try_emplace(name.name);
      if (fresh) range->second.first = at;
      range->second.second = at + 1;
      if (name.number != kNoNumber) overlay_numbers_[name.number] = true;
    }
  }

  // Where each changed item's view side falls among the base definitions in
  // path order, so path order is a comparison of numbers (path_rank).
  void rank_overlay() {
    overlay_rank_.resize(overlay_.size());
    for (std::size_t o = 0; o < overlay_.size(); ++o) {
      std::string_view path = nodes_[base_.size() + o].path;
      std::size_t lo = 0, hi = base_.size();
      while (lo < hi) {
        std::size_t mid = lo + (hi - lo) / 2;
        auto d = base_.named(mid);
        if (d && d->path < path) lo = mid + 1;
        else hi = mid;
      }
      overlay_rank_[o] = 2 * lo + 1;
    }
  }

  // A number in the path order of the usable definitions: the base's are in
  // path order, and no usable one shares a path with a changed item.
  std::size_t path_rank(NodeId id) const { return id < base_.size() ? 2 * id : overlay_rank_[id - base_.size()]; }

  // Definition `id`, looked at once (a base index checks a definition's
  // bytes each time it hands it out); null when it is damaged, has no kind,
  // or is a base definition at a path the changeset changed.
  const Node* node(NodeId id) {
    if (state_[id] == State::unknown) {
      state_[id] = State::left_out;
      if (id < base_.size()) {
        auto d = changed_in_base_[id] ? std::nullopt : base_.named(id);
        if (d && d->kind) {
          nodes_[id] = *d;
          state_[id] = State::usable;
        }
      } else {
        const Side& v = items_[overlay_[id - base_.size()]].view;
        const bool has_name = v.rec.has_name();
        const std::string_view name = has_name ? v.rec.name() : std::string_view();
        nodes_[id] = Node{v.path, v.kind, has_name, name,
                          has_name ? base_.number_of(kind_number(v.kind), name) : kNoNumber};
        state_[id] = State::usable;
      }
    }
    return state_[id] == State::usable ? &nodes_[id] : nullptr;
  }

  std::optional<Name> name_of(const Node& n) const {
    if (!n.has_name) return std::nullopt;
    return Name{kind_number(n.kind), n.name, n.number};
  }

  // Whether frontier entry a's name comes before b's in (kind, name) order.
  bool name_before(const Reach& a, const Reach& b) const {
    if (a.name.kind != b.name.kind) return kind_rank_[a.name.kind] < kind_rank_[b.name.kind];
    return a.name.name < b.name.name;
  }

  // The frontier with one entry per name not walked yet: of a name's
  // entries, the first in path order (a changed name, which has no
  // definition, before any), in no particular order; take_level puts them
  // in (kind, name) order only where that decides something.
  std::vector<Reach> one_per_new_name(const std::vector<Reach>& frontier) {
    // (path rank, number) orders the definitions by path, however many
    // changed items fall between the same two base definitions.
    auto path_of = [&](const Reach& r) {
      if (r.from == kNone) return std::pair<std::size_t, NodeId>{0, 0};
      return std::pair<std::size_t, NodeId>{path_rank(found_[r.from].id) + 1, found_[r.from].id};
    };
    std::vector<Reach> out;
    out.reserve(frontier.size());
    // walked_ and walked_numbers_ hold a name's entry number (walked_count_
    // onwards: this level's).
    for (const Reach& r : frontier) {
      std::size_t* entry = nullptr;
      if (r.name.number != kNoNumber) {
        entry = &walked_numbers_[r.name.number];
      } else {
        auto [at, fresh] = walked_[r.name.kind].try_emplace(r.name.name);
        if (fresh) at->second = kNone;
        entry = &at->second;
      }
      if (*entry == kNone) {
        *entry = walked_count_ + out.size();
        out.push_back(r);
      } else if (*entry >= walked_count_) {
        Reach& kept = out[*entry - walked_count_];
        if (path_of(r) < path_of(kept)) kept = r;
      }
    }
    walked_count_ += out.size();
    return out;
  }

  // For each name of the frontier, the usable definitions with a reference
  // to it that no level before listed, in path order: lists_[i] for
  // frontier[i], in flat_. (Most references lead to a definition listed
  // already, which stays where it is: they are dropped here.)
  void find_referrers(const std::vector<Reach>& frontier) {
    flat_.clear();
    lists_.assign(frontier.size(), {0, 0});
    std::unordered_map<Name, std::vector<NodeId>, NameHash> scanned;
    if (!base_.has_references()) scanned = scan_base(frontier);
    if (base_.has_references()) look_at_referrers(frontier);
    std::vector<NodeId> from_base;
    for (std::size_t i = 0; i < frontier.size(); ++i) {
      const Name& name = frontier[i].name;
      const std::size_t start = flat_.size();
      const auto overlay = overlay_referrers(name);
      from_base.clear();
      if (base_.has_references()) {
        // A base list is ascending and lists a definition once: without
        // changed items to merge in, it goes straight on.
        std::vector<NodeId>& to = overlay.first == overlay.second ? flat_ : from_base;
        for (std::size_t at = referrers_at_[i]; at < referrers_at_[i + 1]; ++at)
          if (NodeId d = referrers_[at]; !seen_[d] && state_[d] == State::usable) to.push_back(d);
      } else if (auto at = scanned.find(name); at != scanned.end()) {
        from_base = std::move(at->second);
      }
      if (overlay.first != overlay.second || !base_.has_references()) merge_with_overlay(overlay, from_base);
      lists_[i] = {start, flat_.size()};
    }
  }

  // Every name's referrers in the base's reverse table (referrers_, the
  // stretch of frontier[i] from referrers_at_[i]), each not listed before
  // looked at (node()) once, with its bytes fetched a few definitions
  // ahead: in a large index each is a wait on memory otherwise.
  void look_at_referrers(const std::vector<Reach>& frontier) {
    referrers_.clear();
    referrers_at_.assign(1, 0);
    names_.clear();
    for (const Reach& r : frontier) names_.push_back({r.name.kind, r.name.name, r.name.number});
    base_.append_referrers_of(names_, referrers_, referrers_at_);
    constexpr std::size_t kAhead = 16;
    const std::size_t n = referrers_.size();
    // Most referrers were looked at through another name already.
    auto fresh = [&](NodeId d) { return !seen_[d] && state_[d] == State::unknown; };
    for (std::size_t j = 0; j < n; ++j) {
      if (j + kAhead < n && fresh(referrers_[j + kAhead])) base_.prefetch_named(referrers_[j + kAhead], 0);
      if (j + kAhead / 2 < n && fresh(referrers_[j + kAhead / 2])) base_.prefetch_named(referrers_[j + kAhead / 2], 1);
      if (fresh(referrers_[j])) node(referrers_[j]);
    }
  }

  // Without a reverse table: every usable base definition no level before
  // listed, read once for the level, its references to a name of the
  // frontier noted, in path order.
  std::unordered_map<Name, std::vector<NodeId>, NameHash> scan_base(const std::vector<Reach>& frontier) {
    std::unordered_map<Name, std::vector<NodeId>, NameHash> out;
    std::unordered_set<std::string_view> names;
    for (const Reach& r : frontier) {
      out.try_emplace(r.name);
      names.insert(r.name.name);
    }
    for (NodeId d = 0; d < base_.size(); ++d) {
      const Node* n = seen_[d] ? nullptr : node(d);
      auto full = n ? base_.def(d) : std::nullopt;  // its references, here only (no reverse table)
      if (!full) continue;
      full->rec.for_each_ref_if([&](std::string_view name) { return names.count(name) != 0; },
                             [&](const RefView& ref) {
                               const Kind* k = kinds_.by_name(ref.target_kind);
                               if (!k) return;
                               auto at = out.find(numbered(kind_number(k), ref.name));
                               if (at == out.end()) return;
                               if (at->second.empty() || at->second.back() != d) at->second.push_back(d);
                             });
    }
    return out;
  }

  // The stretch of overlay_refs_ that refers to `name`.
  std::pair<std::size_t, std::size_t> overlay_referrers(const Name& name) const {
    const bool maybe = name.number == kNoNumber ? !overlay_refs_.empty() : overlay_numbers_[name.number];
    if (const auto* named = maybe ? overlay_named_[name.kind].find(name.name) : nullptr) return *named;
    return {0, 0};
  }

  // `from_base` (ascending, which is path order) and the changed items of
  // `refs` (overlay_referrers), merged in path order onto flat_, each once,
  // leaving out those a level before listed.
  void merge_with_overlay(std::pair<std::size_t, std::size_t> refs, const std::vector<NodeId>& from_base) {
    std::size_t start = flat_.size();
    auto push = [&](NodeId id) {
      if (!seen_[id] && (flat_.size() == start || flat_.back() != id)) flat_.push_back(id);
    };
    std::size_t b = 0;
    for (std::size_t at = refs.first; at < refs.second; ++at) {
      std::size_t rank = path_rank(overlay_refs_[at].id);
      while (b < from_base.size() && path_rank(from_base[b]) < rank) push(from_base[b++]);
      push(overlay_refs_[at].id);
    }
    while (b < from_base.size()) push(from_base[b++]);
  }

  // Whether a referrer of the frontier is one not listed yet (so a walk
  // stopped there left definitions out).
  bool any_new(const std::vector<Reach>& frontier) const {
    for (std::size_t i = 0; i < frontier.size(); ++i)
      for (std::size_t at = lists_[i].first; at < lists_[i].second; ++at) {
        NodeId id = flat_[at];
        if (!seen_[id] && name_of(nodes_[id]) != frontier[i].name) return true;
      }
    return false;
  }

  // Lists the referrers of the frontier not listed yet and makes their names
  // the next frontier; false once the count limit stopped it. A definition
  // that refers to several names of the frontier is listed through the
  // first in (kind, name) order (ws-build(1), IMPACT).
  bool take_level(std::vector<Reach>& frontier, ChangeImpact& out) {
    const std::size_t level = found_.size();
    through_.clear();
    for (std::size_t i = 0; i < frontier.size(); ++i)
      for (std::size_t at = lists_[i].first; at < lists_[i].second; ++at) take(flat_[at], frontier, i, level);
    if (found_.size() > limits_.max_definitions) {
      take_level_in_order(frontier, level);
      out.truncated = ImpactTruncation::definitions;
      return false;
    }
    std::vector<Reach> next;
    for (std::size_t f = level; f < found_.size(); ++f)
      if (auto own = name_of(nodes_[found_[f].id])) next.push_back({*own, f, found_[f].root});
    frontier = std::move(next);
    return true;
  }

  // Definition `id` as a referrer of frontier[i]: listed if it is new, or
  // moved to frontier[i] if this level listed it through a later name.
  void take(NodeId id, const std::vector<Reach>& frontier, std::size_t i, std::size_t level) {
    const Reach& r = frontier[i];
    if (name_of(nodes_[id]) == r.name) return;  // a reference to its own name
    if (!seen_[id]) {
      seen_[id] = true;
      listed_[id] = found_.size();
      found_.push_back({id, r.from, r.root});
      through_.push_back(i);
      return;
    }
    std::size_t f = listed_[id];
    if (f < level || !name_before(r, frontier[through_[f - level]])) return;
    found_[f].parent = r.from;
    found_[f].root = r.root;
    through_[f - level] = i;
  }

  // The level again, its names in (kind, name) order, listing definitions
  // until the count limit: which ones make the list depends on that order.
  void take_level_in_order(const std::vector<Reach>& frontier, std::size_t level) {
    for (std::size_t f = level; f < found_.size(); ++f) seen_[found_[f].id] = false;
    found_.resize(level);
    std::vector<std::size_t> order(frontier.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return name_before(frontier[a], frontier[b]); });
    for (std::size_t i : order)
      for (std::size_t at = lists_[i].first; at < lists_[i].second; ++at) {
        NodeId id = flat_[at];
        if (seen_[id] || name_of(nodes_[id]) == frontier[i].name) continue;
        if (found_.size() == limits_.max_definitions) return;
        seen_[id] = true;
        listed_[id] = found_.size();
        found_.push_back({id, frontier[i].from, frontier[i].root});
      }
  }

  // The definitions found, by depth then path, each naming the one before
  // it on its path.
  void emit(ChangeImpact& out) {
    std::vector<std::size_t> depth(found_.size());
    for (std::size_t f = 0; f < found_.size(); ++f)
      depth[f] = found_[f].parent == kNone ? 1 : depth[found_[f].parent] + 1;
    // found_ is in level order (take_level lists a level after the one
    // before), so each level is put in path order on its own.
    std::vector<std::size_t> order;  // indexes in found_
    order.reserve(found_.size());
    std::vector<std::uint64_t> marked((base_.size() + 63) / 64, 0);
    for (std::size_t level = 0; level < found_.size();) {
      std::size_t end = level;
      while (end < found_.size() && depth[end] == depth[level]) ++end;
      append_in_path_order(level, end, marked, order);
      level = end;
    }
    out.reached = std::move(roots_);
    make_impacted(order, depth, out);
  }

  // found_[from, to) appended to `order` in path order. The base's numbers
  // are in path order, so its definitions are marked in `marked` (left
  // clear again) and read back in order; the few changed items' view sides
  // are sorted by path rank, then number (those between the same two base
  // definitions are numbered in path order), and merged in.
  void append_in_path_order(std::size_t from, std::size_t to, std::vector<std::uint64_t>& marked,
                            std::vector<std::size_t>& order) {
    std::vector<std::pair<std::size_t, NodeId>> changed;  // (path rank, number)
    for (std::size_t f = from; f < to; ++f) {
      const NodeId id = found_[f].id;
      if (id < base_.size()) marked[id / 64] |= std::uint64_t(1) << (id % 64);
      else changed.emplace_back(path_rank(id), id);
    }
    std::sort(changed.begin(), changed.end());
    std::size_t next_changed = 0;
    auto changed_before = [&](std::size_t rank) {
      for (; next_changed < changed.size() && changed[next_changed].first < rank; ++next_changed)
        order.push_back(listed_[changed[next_changed].second]);
    };
    for (std::size_t w = 0; w < marked.size(); ++w)
      for (std::uint64_t bits = marked[w]; bits != 0; bits &= bits - 1) {
        const NodeId id = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        changed_before(path_rank(id));
        order.push_back(listed_[id]);
        marked[w] = 0;
      }
    changed_before(std::numeric_limits<std::size_t>::max());
  }

  // out.impacted in `order`. A base definition's path and name are viewed
  // where the base keeps them when it keeps them past the build (a base
  // index's file); the kinds' names, once each, and the rest are copied
  // into one block.
  void make_impacted(const std::vector<std::size_t>& order, const std::vector<std::size_t>& depth,
                     ChangeImpact& out) {
    struct Held {
      std::shared_ptr<const void> base;
      std::unique_ptr<char[]> own;
    };
    auto held = std::make_shared<Held>();
    held->base = base_.bytes_owner();
    auto in_place = [&](NodeId id) { return held->base && id < base_.size(); };
    // The block is sized first, then written from its start.
    std::vector<std::string_view> kind_text(kinds_.kinds().size());
    std::size_t size = 0;
    for (std::size_t f : order) {
      const NodeId id = found_[f].id;
      const Node& n = nodes_[id];
      if (std::string_view& kind = kind_text[kind_number(n.kind)]; kind.data() == nullptr) {
        kind = n.kind->name;
        size += kind.size();
      }
      if (!in_place(id)) size += n.name.size() + n.path.size();
    }
    // Every byte is written below, so none is cleared first.
    held->own = std::make_unique_for_overwrite<char[]>(size);
    char* cursor = held->own.get();
    auto copy = [&](std::string_view s) {
      if (!s.empty()) std::memcpy(cursor, s.data(), s.size());
      cursor += s.size();
      return std::string_view(cursor - s.size(), s.size());
    };
    for (std::string_view& kind : kind_text)
      if (kind.data() != nullptr) kind = copy(kind);
    std::vector<std::size_t> listed_at(found_.size());
    out.impacted.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::size_t f = order[i];
      const NodeId id = found_[f].id;
      const Node& n = nodes_[id];
      listed_at[f] = i;
      ImpactedDefinition& d = out.impacted.emplace_back();
      d.kind = kind_text[kind_number(n.kind)];
      d.name = in_place(id) ? n.name : copy(n.name);
      d.path = in_place(id) ? n.path : copy(n.path);
      d.reaches = found_[f].root;
      // The one before on the path has a smaller depth: listed already.
      d.via = found_[f].parent == kNone ? ImpactedDefinition::kNone : listed_at[found_[f].parent];
      d.depth = depth[f];
      d.changed = id >= base_.size();
    }
    out.impacted_bytes = std::move(held);
  }

  const KindPack& kinds_;
  const std::vector<Item>& items_;
  const BaseDefinitions& base_;
  const ImpactLimits& limits_;
  std::vector<std::size_t> kind_rank_;  // by kind number: its place in name order
  std::vector<bool> changed_in_base_;  // by base definition: at a path the changeset changed
  std::vector<std::size_t> overlay_;  // changed items with a view side, by path
  std::vector<OverlayRef> overlay_refs_;  // by (kind, name), then number
  // by kind number: each name's stretch of overlay_refs_, [first, second)
  std::vector<detail::FlatNameMap<std::pair<std::size_t, std::size_t>>> overlay_named_;
  std::vector<std::size_t> overlay_rank_;  // path_rank of each changed item's view side
  std::vector<Node> nodes_;
  std::vector<State> state_;
  std::vector<bool> seen_;
  std::vector<ReachedName> roots_;
  std::vector<detail::FlatNameMap<std::size_t>> walked_;  // by kind number: the unnumbered names walked
  std::vector<std::size_t> walked_numbers_;                // by number: the numbered names walked, or kNone
  std::vector<bool> overlay_numbers_;  // by number: whether a changed item's view side refers to it
  std::size_t walked_count_ = 0;                           // entries of the frontiers before this one
  std::vector<std::size_t> listed_;                        // by definition, once seen: its index in found_
  std::vector<std::size_t> through_;  // by index in found_ from this level's first: its frontier entry
  std::vector<Found> found_;
  std::vector<NodeId> flat_;
  std::vector<NodeId> referrers_;           // a level's names' referrers in the base, one stretch each
  std::vector<std::size_t> referrers_at_;  // where each stretch starts, and the end
  std::vector<BaseDefinitions::WalkName> names_;  // the level's names, asked of the base at once
  std::vector<std::pair<std::size_t, std::size_t>> lists_;
};

}  // namespace

void walk_impact(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                 bool base_has_changed_paths, const ReachedNames& reached, const ImpactLimits& limits,
                 ChangeImpact& out) {
  out.limits = limits;
  ImpactWalk(kinds, items, base, base_has_changed_paths, limits).run(reached, out);
}

}  // namespace ws::compile_detail
