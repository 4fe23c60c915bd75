// The compile's second half, on definitions already read: the overlay symbol
// table (base − deleted/changed + added/changed, per kind: name → the
// definitions carrying it), duplicate names, references of checked
// definitions resolved against the overlay, and — the other direction —
// unchanged definitions whose references name a symbol or member the
// changeset removed, each reported at its own line with a note naming the
// change that broke it.
#include <algorithm>
#include <exception>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "compile_internal.h"
#include "flat_name_map.h"
#include "parallel.h"
#include "suggest.h"

namespace ws::compile_detail {

std::string kind_label(std::string_view kind) {
  std::string s(kind);
  std::replace(s.begin(), s.end(), '-', ' ');
  if (s.rfind("ai ", 0) == 0) s.replace(0, 2, "AI");
  return s;
}

namespace {

// "field" for a kind whose members live at "/fields/*/name"; else "member".
std::string member_word(const Kind& k) {
  std::string_view p = k.member_pointer;
  if (p.size() > 1 && p[0] == '/') {
    p.remove_prefix(1);
    std::string w(p.substr(0, p.find('/')));
    if (!w.empty() && w != "*") {
      if (w.size() > 1 && w.back() == 's') w.pop_back();
      return w;
    }
  }
  return "member";
}

bool is_implicit(const Kind& k, std::string_view member) {
  return std::find(k.implicit_members.begin(), k.implicit_members.end(), member) != k.implicit_members.end();
}

std::string q(std::string_view s) { return "'" + std::string(s) + "'"; }

Note note_at(std::string_view path, std::optional<Span> span, std::string message) {
  Note n;
  n.path = std::string(path);
  n.has_span = span.has_value();
  if (span) n.span = *span;
  n.message = std::move(message);
  return n;
}

Note plain_note(std::string message) {
  Note n;
  n.message = std::move(message);
  return n;
}

// A symbol or member the changeset removed, and the changed item that did it.
struct Removal {
  std::size_t cause = 0;
  bool member = false;
};

std::string symbol_key(std::string_view kind, std::string_view name) {
  std::string k(kind);
  k.push_back('\0');
  k.append(name);
  return k;
}

std::string member_key(std::string_view kind, std::string_view name, std::string_view member) {
  std::string k = symbol_key(kind, name);
  k.push_back('\0');
  k.append(member);
  return k;
}

class Checker {
 public:
  Checker(const KindPack& kinds, const std::vector<Item>& items, bool all, std::vector<Diagnostic>& out)
      : kinds_(kinds), items_(items), all_(all), out_(out), table_(kinds.kinds().size()) {}

  void run() {
    build_table();
    check_duplicates();
    find_removals();
    for (std::size_t i = 0; i < items_.size(); ++i)
      if (items_[i].checked && items_[i].view.present) check_refs(i);
    reverse_scan();
  }

 private:
  // The items defining one name of one kind: almost always one, kept inline,
  // so only duplicates allocate.
  struct Owners {
    std::size_t first = 0;
    std::vector<std::size_t> more;
    template <class F>
    bool any(F&& f) const {
      return f(first) || std::any_of(more.begin(), more.end(), f);
    }
    std::vector<std::size_t> all() const {
      std::vector<std::size_t> v{first};
      v.insert(v.end(), more.begin(), more.end());
      return v;
    }
  };
  using NameMap = detail::FlatNameMap<Owners>;

  std::size_t index_of(const Kind* k) const { return static_cast<std::size_t>(k - kinds_.kinds().data()); }
  NameMap& names_of(const Kind* k) { return table_[index_of(k)]; }

  const Owners* defs(const Kind* k, std::string_view name) { return names_of(k).find(name); }

  bool has_member(const Kind* k, const Owners& owners, std::string_view member) const {
    if (is_implicit(*k, member)) return true;
    return owners.any([&](std::size_t d) { return items_[d].view.rec.has_member(member); });
  }

  void build_table() {
    std::vector<std::size_t> per_kind(table_.size(), 0);
    for (const auto& it : items_)
      if (it.view.present && it.view.kind) ++per_kind[index_of(it.view.kind)];
    for (std::size_t k = 0; k < table_.size(); ++k) table_[k].reserve(per_kind[k]);
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Side& v = items_[i].view;
      if (!v.present || !v.kind || !v.rec.has_name()) continue;
      auto [at, fresh] = names_of(v.kind).try_emplace(v.rec.name());
      if (fresh) {
        at->second.first = i;
      } else {
        if (at->second.more.empty()) duplicates_.emplace_back(v.kind, at->first);
        at->second.more.push_back(i);
      }
    }
  }

  void check_duplicates() {
    for (const auto& [kind, name] : duplicates_) {
      std::vector<std::size_t> owners = names_of(kind).find(name)->all();
      if (std::none_of(owners.begin(), owners.end(), [&](std::size_t d) { return items_[d].checked; })) continue;
      for (std::size_t d : owners) {
        const Side& v = items_[d].view;
        Diagnostic diag = make_diag(DiagCode::duplicate_name, std::string(v.path), v.rec.name_span(),
                                    "duplicate " + kind_label(kind->name) + " name " + q(name));
        for (std::size_t other : owners)
          if (other != d)
            diag.notes.push_back(note_at(items_[other].view.path, items_[other].view.rec.name_span(),
                                         q(name) + " is also defined here"));
        out_.push_back(std::move(diag));
      }
    }
  }

  // What the base defined at changed entries and the overlay no longer has.
  void find_removals() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Item& it = items_[i];
      if (!it.changed || !it.base.present || !it.base.kind || !it.base.rec.has_name()) continue;
      const Kind* k = it.base.kind;
      std::string_view name = it.base.rec.name();
      const auto* owners = defs(k, name);
      if (!owners) {
        symbols_.emplace(symbol_key(k->name, name), Removal{i, false});
        removed_names_.insert(name);
        continue;
      }
      it.base.rec.for_each_member([&](const MemberView& m) {
        if (!has_member(k, *owners, m.name)) {
          members_.emplace(member_key(k->name, name, m.name), Removal{i, true});
          removed_names_.insert(name);
        }
      });
    }
  }

  const Removal* removal_for(const RefView& r) const {
    if (!removed_names_.may_hold(r.name)) return nullptr;
    auto s = symbols_.find(symbol_key(r.target_kind, r.name));
    if (s != symbols_.end()) return &s->second;
    if (r.member.empty()) return nullptr;
    auto m = members_.find(member_key(r.target_kind, r.name, r.member));
    return m != members_.end() ? &m->second : nullptr;
  }

  // A JSON member reference ("/fields/*" of an index) whose owner is missing
  // is reported once, at the owner's own reference ("/node").
  static bool owner_reported_elsewhere(const RecordView& rec, const RefView& r) {
    if (r.member.empty() || r.origin != RefOrigin::json) return false;
    bool found = false;
    rec.for_each_ref([&](const RefView& o) {
      found = found || (o.member.empty() && o.target_kind == r.target_kind && o.name == r.name);
    });
    return found;
  }

  std::string unresolved_message(const RefView& r, const Kind& k) const {
    if (r.origin == RefOrigin::code && !k.symbol_root.empty())
      return "unresolved reference " + q(k.symbol_root + "." + std::string(r.name));
    return "unresolved reference to " + kind_label(k.name) + " " + q(r.name);
  }

  std::string member_message(const RefView& r, const Kind& k) const {
    return kind_label(k.name) + " " + q(r.name) + " has no " + member_word(k) + " " + q(r.member);
  }

  void check_refs(std::size_t i) {
    const Item& it = items_[i];
    it.view.rec.for_each_ref([&](const RefView& r) {
      const Kind* k = kinds_.by_name(r.target_kind);
      if (!k) return;
      const auto* owners = defs(k, r.name);
      if (owners && (r.member.empty() || has_member(k, *owners, r.member))) return;
      if (!owners && owner_reported_elsewhere(it.view.rec, r)) return;
      const Removal* rem = removal_for(r);
      if (rem && !it.changed) {
        out_.push_back(broken(i, r, *k, *rem));
        return;
      }
      // A changed file still using what the changeset removed: the note
      // that says what happened beats a guess at what was meant.
      if (!owners) {
        Diagnostic d = make_diag(DiagCode::unresolved_reference, std::string(it.view.path), r.span,
                                 unresolved_message(r, *k));
        if (rem) d.notes.push_back(removal_note(r, *k, *rem));
        else if (auto best = closest_name(k, r.name)) d.notes.push_back(plain_note("did you mean " + q(*best) + "?"));
        out_.push_back(std::move(d));
        return;
      }
      Diagnostic d = make_diag(DiagCode::unknown_member, std::string(it.view.path), r.span, member_message(r, *k));
      if (rem) {
        d.notes.push_back(removal_note(r, *k, *rem));
      } else {
        Suggester s(r.member);
        for (const auto& m : k->implicit_members) s.consider(m);
        for (std::size_t o : owners->all())
          items_[o].view.rec.for_each_member([&](const MemberView& m) { s.consider(m.name); });
        if (auto best = s.best()) d.notes.push_back(plain_note("did you mean " + q(*best) + "?"));
      }
      out_.push_back(std::move(d));
    });
  }

  // The closest name of kind `k`, remembered: an audit of a workspace that
  // misspells one name a thousand times scans the names once.
  std::optional<std::string> closest_name(const Kind* k, std::string_view name) {
    auto [it, fresh] = suggestions_.try_emplace(symbol_key(k->name, name));
    if (fresh) {
      Suggester s(name);
      for (const auto& entry : names_of(k)) s.consider(entry.first);
      it->second = s.best();
    }
    return it->second;
  }

  // Unchanged definitions against the removals (with --all, check_refs has
  // already seen every one of them).
  // Every unchanged definition is read here, and each independently of the
  // others: past kParallelScan items the scan is split over the cores, each
  // part's findings kept apart and appended in item order, as one thread
  // would have found them.
  static constexpr std::size_t kParallelScan = 20000;

  void reverse_scan() {
    if (all_ || (symbols_.empty() && members_.empty())) return;
    const std::size_t n = items_.size();
    const std::size_t parts = n >= kParallelScan ? std::min<std::size_t>(worker_count(), 8) : 1;
    std::vector<std::vector<Diagnostic>> found(parts);
    std::vector<std::exception_ptr> failed(parts);
    parallel_for(parts, [&](std::size_t p) {
      try {
        scan(p * n / parts, (p + 1) * n / parts, found[p]);
      } catch (...) {
        failed[p] = std::current_exception();  // nothing may escape a thread; rethrown below
      }
    });
    for (const auto& e : failed)
      if (e) std::rethrow_exception(e);
    for (auto& f : found) out_.insert(out_.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
  }

  void scan(std::size_t from, std::size_t to, std::vector<Diagnostic>& out) const {
    auto removed = [this](std::string_view name) { return removed_names_.may_hold(name); };
    for (std::size_t i = from; i < to; ++i) {
      const Item& it = items_[i];
      if (it.changed || !it.view.present) continue;
      it.view.rec.for_each_ref_if(removed, [&](const RefView& r) {
        const Removal* rem = removal_for(r);
        if (!rem || !items_[rem->cause].in_scope) return;
        if (!rem->member && owner_reported_elsewhere(it.view.rec, r)) return;
        const Kind* k = kinds_.by_name(r.target_kind);
        if (k) out.push_back(broken(i, r, *k, *rem));
      });
    }
  }

  // An unchanged definition's reference to what the changeset removed.
  Diagnostic broken(std::size_t i, const RefView& r, const Kind& k, const Removal& rem) const {
    Diagnostic d = make_diag(DiagCode::broken_by_change, std::string(items_[i].view.path), r.span,
                             rem.member ? member_message(r, k) : unresolved_message(r, k));
    d.notes.push_back(removal_note(r, k, rem));
    return d;
  }

  // Names the change that removed what `r` refers to.
  Note removal_note(const RefView& r, const Kind& k, const Removal& rem) const {
    const Item& cause = items_[rem.cause];
    const Side& now = cause.view;
    // The changed file still defines a symbol of this kind: a rename.
    bool named = now.present && now.kind == cause.base.kind && now.rec.has_name();
    if (rem.member) {
      std::string where(now.present ? now.path : cause.base.path);
      return note_at(where, named ? std::optional<Span>(now.rec.name_span()) : std::nullopt,
                     member_word(k) + " " + q(r.member) + " was removed from " + kind_label(k.name) + " " +
                         q(r.name) + " in " + where);
    }
    if (named)
      return note_at(now.path, now.rec.name_span(),
                     q(r.name) + " was renamed to " + q(now.rec.name()) + " in " + std::string(now.path));
    if (cause.entry->status == ChangeStatus::deleted || now.kind != cause.base.kind)
      return note_at(cause.base.path, std::nullopt, q(r.name) + " was deleted with " + std::string(cause.base.path));
    return note_at(cause.entry->path, std::nullopt, q(r.name) + " was removed from " + cause.entry->path);
  }

  const KindPack& kinds_;
  const std::vector<Item>& items_;
  bool all_;
  std::vector<Diagnostic>& out_;
  std::vector<NameMap> table_;  // per kind, by index in kinds_.kinds()
  std::vector<std::pair<const Kind*, std::string_view>> duplicates_;  // names with two owners or more
  std::unordered_map<std::string, Removal> symbols_;
  std::unordered_map<std::string, Removal> members_;
  // A cheap first filter over every reference of the workspace: a
  // changeset removes a handful of names, so their lengths rule out almost
  // every reference before a single byte is compared, where hashing each
  // name was a tenth of a warm build at 10,000 definitions.
  // A changeset that removes many names gets a hash set after all.
  struct NameFilter {
    static constexpr std::size_t kFew = 16;
    std::uint64_t lengths = 0;  // bit (size % 64) for each name held
    std::vector<std::string_view> few;
    std::unordered_set<std::string_view> many;  // once there are more than kFew
    void insert(std::string_view n) {
      lengths |= std::uint64_t(1) << (n.size() % 64);
      if (!many.empty()) {
        many.insert(n);
      } else if (std::find(few.begin(), few.end(), n) == few.end()) {
        few.push_back(n);
        if (few.size() > kFew) {
          many.insert(few.begin(), few.end());
          few.clear();
        }
      }
    }
    bool may_hold(std::string_view n) const {
      if (!(lengths >> (n.size() % 64) & 1)) return false;
      if (!many.empty()) return many.count(n) != 0;
      return std::find(few.begin(), few.end(), n) != few.end();
    }
  };
  NameFilter removed_names_;
  std::unordered_map<std::string, std::optional<std::string>> suggestions_;
};

}  // namespace

void check_symbols(const KindPack& kinds, const std::vector<Item>& items, bool all,
                   std::vector<Diagnostic>& out) {
  Checker(kinds, items, all, out).run();
}

}  // namespace ws::compile_detail
