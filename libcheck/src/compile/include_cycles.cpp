// Strongly connected components of the acyclic references (Tarjan's, with
// an explicit stack, so a chain of any length costs no recursion), over the
// definitions the changed ones reach: a component of two definitions or
// more, or one that includes itself, is a cycle.
#include "include_cycles.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

namespace ws::compile_detail {

namespace {

constexpr std::uint32_t kNone = 0xffffffffu;

struct Edge {
  Span at;  // the reference, in its definition
  std::uint32_t to = 0;
};

struct Node {
  bool base = false;
  std::uint32_t i = 0;  // item number, or definition number in `base`
  std::string_view path;
  RecordView rec;
  bool changed = false, checked = false, in_scope = false;
  std::vector<Edge> edges;
  std::uint32_t index = kNone, low = 0, scc = kNone;
  bool on_stack = false;
};

class CycleFinder {
 public:
  CycleFinder(const KindPack& kinds, const Kind& kind, const std::vector<Item>& items, const BaseDefinitions& base,
              bool filter, bool all, std::vector<Diagnostic>& out)
      : kinds_(kinds), kind_(kind), items_(items), base_(base), filter_(filter), all_(all), out_(out) {}

  void run() {
    index_changed();
    for (std::uint32_t n : starts()) strongconnect(n);
    report();
  }

 private:
  std::size_t kind_index() const { return static_cast<std::size_t>(&kind_ - kinds_.kinds().data()); }

  void index_changed() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Item& it = items_[i];
      if (!it.changed) continue;
      if (filter_) {
        changed_paths_.insert(it.entry->path);
        if (!it.entry->old_path.empty()) changed_paths_.insert(it.entry->old_path);
      }
      if (it.view.present && it.view.kind == &kind_ && it.view.rec.has_name())
        changed_by_name_[it.view.rec.name()].push_back(static_cast<std::uint32_t>(i));
    }
  }

  std::vector<std::uint32_t> starts() {
    std::vector<std::uint32_t> s;
    for (const auto& [name, owners] : changed_by_name_)
      for (std::uint32_t i : owners) s.push_back(node_of(false, i));
    if (all_)
      for (std::size_t d = 0; d < base_.size(); ++d) {
        auto b = base_.def(d);
        if (b && b->kind == &kind_ && b->item != BaseDefinitions::kNoItem && b->item < items_.size() &&
            items_[b->item].checked)
          if (auto n = base_node(d)) s.push_back(*n);
      }
    std::sort(s.begin(), s.end(), [&](std::uint32_t a, std::uint32_t b) { return nodes_[a].path < nodes_[b].path; });
    return s;
  }

  std::optional<std::uint32_t> base_node(std::size_t d) {
    auto b = base_.def(d);
    if (!b || b->kind != &kind_ || !b->rec.has_name() || (filter_ && changed_paths_.count(b->path))) return std::nullopt;
    return node_of(true, static_cast<std::uint32_t>(d));
  }

  // The node of a definition, made on first sight.
  std::uint32_t node_of(bool base, std::uint32_t i) {
    std::uint64_t key = (std::uint64_t(base) << 32) | i;
    auto [at, fresh] = by_key_.try_emplace(key, static_cast<std::uint32_t>(nodes_.size()));
    if (!fresh) return at->second;
    Node n;
    n.base = base;
    n.i = i;
    if (base) {
      auto b = base_.def(i);
      n.path = b->path;
      n.rec = b->rec;
      n.checked = b->item != BaseDefinitions::kNoItem && b->item < items_.size() && items_[b->item].checked;
    } else {
      const Item& it = items_[i];
      n.path = it.view.path;
      n.rec = it.view.rec;
      n.changed = true;
      n.checked = it.checked;
      n.in_scope = it.in_scope;
    }
    nodes_.push_back(std::move(n));
    return at->second;
  }

  // The definitions of the overlay an acyclic reference of node `n` names,
  // each reference's in path order.
  void take_edges(std::uint32_t n) {
    std::vector<Edge> edges;
    nodes_[n].rec.for_each_ref([&](const RefView& r) {
      if (r.origin != RefOrigin::json || !r.member.empty() || r.target_kind != kind_.name) return;
      std::vector<std::uint32_t> to;
      if (auto c = changed_by_name_.find(r.name); c != changed_by_name_.end())
        for (std::uint32_t i : c->second) to.push_back(node_of(false, i));
      base_.owners(kind_index(), r.name, [&](std::size_t d) {
        if (auto b = base_node(d)) to.push_back(*b);
      });
      std::sort(to.begin(), to.end(), [&](std::uint32_t a, std::uint32_t b) { return nodes_[a].path < nodes_[b].path; });
      for (std::uint32_t t : to) edges.push_back(Edge{r.span, t});
    });
    nodes_[n].edges = std::move(edges);
  }

  void strongconnect(std::uint32_t root) {
    if (nodes_[root].index != kNone) return;
    struct Frame {
      std::uint32_t n;
      std::size_t next = 0;
    };
    std::vector<Frame> frames;
    auto enter = [&](std::uint32_t n) {
      take_edges(n);
      nodes_[n].index = nodes_[n].low = counter_++;
      nodes_[n].on_stack = true;
      stack_.push_back(n);
      frames.push_back(Frame{n});
    };
    enter(root);
    while (!frames.empty()) {
      Frame& f = frames.back();
      if (f.next < nodes_[f.n].edges.size()) {
        std::uint32_t to = nodes_[f.n].edges[f.next++].to;
        if (nodes_[to].index == kNone) enter(to);
        else if (nodes_[to].on_stack) nodes_[f.n].low = std::min(nodes_[f.n].low, nodes_[to].index);
        continue;
      }
      std::uint32_t n = f.n;
      frames.pop_back();
      if (!frames.empty()) nodes_[frames.back().n].low = std::min(nodes_[frames.back().n].low, nodes_[n].low);
      if (nodes_[n].low == nodes_[n].index) close_component(n);
    }
  }

  void close_component(std::uint32_t head) {
    std::vector<std::uint32_t> members;
    std::uint32_t m;
    do {
      m = stack_.back();
      stack_.pop_back();
      nodes_[m].on_stack = false;
      nodes_[m].scc = static_cast<std::uint32_t>(components_.size());
      members.push_back(m);
    } while (m != head);
    bool cyclic = members.size() > 1 || std::any_of(nodes_[head].edges.begin(), nodes_[head].edges.end(),
                                                    [&](const Edge& e) { return e.to == head; });
    components_.push_back(cyclic ? std::move(members) : std::vector<std::uint32_t>());
  }

  // Whether node `n`, on a cycle of component `members`, is reported.
  bool reported(std::uint32_t n, const std::vector<std::uint32_t>& members) const {
    if (nodes_[n].checked) return true;
    if (nodes_[n].changed) return false;
    return std::any_of(members.begin(), members.end(),
                       [&](std::uint32_t o) { return nodes_[o].changed && nodes_[o].in_scope; });
  }

  void report() {
    std::vector<std::uint32_t> found;
    for (const auto& members : components_)
      for (std::uint32_t n : members)
        if (reported(n, members)) found.push_back(n);
    std::sort(found.begin(), found.end(), [&](std::uint32_t a, std::uint32_t b) { return nodes_[a].path < nodes_[b].path; });
    for (std::uint32_t n : found) {
      std::vector<std::uint32_t> cycle = cycle_from(n);
      const Edge* first = nullptr;
      std::uint32_t next = cycle.size() > 1 ? cycle[1] : n;
      for (const Edge& e : nodes_[n].edges)
        if (!first && e.to == next) first = &e;
      if (!first) continue;  // cannot be: `cycle` follows edges
      out_.push_back(make_diag(DiagCode::include_cycle, std::string(nodes_[n].path), first->at,
                               "include cycle: " + spell(cycle)));
    }
  }

  // The shortest cycle from `n` back to it, within its component: `n` first,
  // without the return to it. A component that is one loop (each member one
  // edge within it) is walked once and rotated.
  std::vector<std::uint32_t> cycle_from(std::uint32_t n) {
    const std::uint32_t scc = nodes_[n].scc;
    if (auto loop = simple_loop(scc)) {
      const std::vector<std::uint32_t>& order = *loop;
      std::size_t at = std::find(order.begin(), order.end(), n) - order.begin();
      std::vector<std::uint32_t> r(order.begin() + static_cast<std::ptrdiff_t>(at), order.end());
      r.insert(r.end(), order.begin(), order.begin() + static_cast<std::ptrdiff_t>(at));
      return r;
    }
    std::unordered_map<std::uint32_t, std::uint32_t> parent;
    std::deque<std::uint32_t> queue{n};
    while (!queue.empty()) {
      std::uint32_t x = queue.front();
      queue.pop_front();
      for (const Edge& e : nodes_[x].edges) {
        if (nodes_[e.to].scc != scc) continue;
        if (e.to == n) {
          std::vector<std::uint32_t> r{x};
          while (r.back() != n) r.push_back(parent[r.back()]);
          std::reverse(r.begin(), r.end());
          return r;
        }
        if (parent.try_emplace(e.to, x).second) queue.push_back(e.to);
      }
    }
    return {n};
  }

  // The members of component `scc` in loop order, when it is one loop.
  const std::vector<std::uint32_t>* simple_loop(std::uint32_t scc) {
    auto [at, fresh] = loops_.try_emplace(scc);
    if (!fresh) return at->second ? &*at->second : nullptr;
    const std::vector<std::uint32_t>& members = components_[scc];
    std::vector<std::uint32_t> order;
    std::uint32_t x = members.front();
    do {
      std::uint32_t next = kNone;
      for (const Edge& e : nodes_[x].edges)
        if (nodes_[e.to].scc == scc) {
          if (next != kNone && next != e.to) return nullptr;
          next = e.to;
        }
      if (next == kNone) return nullptr;
      order.push_back(x);
      x = next;
    } while (x != members.front() && order.size() <= members.size());
    if (order.size() != members.size()) return nullptr;
    at->second = std::move(order);
    return &*at->second;
  }

  // "A -> B -> A"; a long cycle keeps its first names and its last.
  std::string spell(const std::vector<std::uint32_t>& cycle) const {
    constexpr std::size_t kShown = 10, kHead = 7;
    std::string s;
    auto add = [&](std::uint32_t n) {
      if (!s.empty()) s += " -> ";
      s += nodes_[n].rec.name();
    };
    if (cycle.size() <= kShown) {
      for (std::uint32_t n : cycle) add(n);
    } else {
      for (std::size_t k = 0; k < kHead; ++k) add(cycle[k]);
      s += fmt::format(" -> ... {} more ...", cycle.size() - kHead - 1);
      add(cycle.back());
    }
    add(cycle.front());
    return s;
  }

  const KindPack& kinds_;
  const Kind& kind_;
  const std::vector<Item>& items_;
  const BaseDefinitions& base_;
  bool filter_, all_;
  std::vector<Diagnostic>& out_;
  std::unordered_set<std::string_view> changed_paths_;
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> changed_by_name_;
  std::unordered_map<std::uint64_t, std::uint32_t> by_key_;
  std::deque<Node> nodes_;
  std::vector<std::uint32_t> stack_;
  std::uint32_t counter_ = 0;
  std::vector<std::vector<std::uint32_t>> components_;  // empty: not a cycle
  std::unordered_map<std::uint32_t, std::optional<std::vector<std::uint32_t>>> loops_;
};

}  // namespace

void check_include_cycles(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                          bool filter, bool all, std::vector<Diagnostic>& out) {
  for (const Kind& k : kinds.kinds())
    if (acyclic_self_references(k)) CycleFinder(kinds, k, items, base, filter, all, out).run();
}

}  // namespace ws::compile_detail
