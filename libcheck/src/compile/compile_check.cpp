// The compile's second half, on definitions already read: the overlay
// (base − deleted/changed + added/changed: a name table of the changed
// items, per kind, beside the unchanged definitions of base_definitions.h),
// duplicate names, references of checked definitions resolved against the
// overlay, and — the other direction — unchanged definitions whose
// references name a symbol or member the changeset removed, each reported
// at its own line with a note naming the change that broke it.
#include <algorithm>
#include <exception>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "base_definitions.h"
#include "compile_internal.h"
#include "flat_name_map.h"
#include "include_cycles.h"
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

std::string q(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('\'');
  out.append(s);
  out.push_back('\'');
  return out;
}

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

// A definition of the overlay: the view side of a changed item, or one of
// the base index's.
struct Def {
  bool base = false;
  std::uint32_t i = 0;  // item number, or definition number in the index
};

class Checker {
 public:
  Checker(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base, bool filter, bool all,
          std::vector<Diagnostic>& out)
      : kinds_(kinds), items_(items), base_(base), filter_(filter), all_(all), out_(out),
        table_(kinds.kinds().size()) {}

  void run() {
    collect_changed_paths();
    build_table();
    check_duplicates();
    find_removals();
    for (std::size_t i = 0; i < items_.size(); ++i)
      if (items_[i].changed && items_[i].checked && items_[i].view.present) check_refs(item_def(i));
    if (all_)
      for (std::size_t d = 0; d < base_.size(); ++d) {
        auto b = base_.def(d);
        if (b && b->item != BaseDefinitions::kNoItem && b->item < items_.size() && items_[b->item].checked)
          check_refs(Def{true, static_cast<std::uint32_t>(d)});
      }
    reverse_scan();
  }

 private:
  // The changed items defining one name of one kind: almost always one,
  // kept inline, so only duplicates allocate.
  struct Owners {
    std::size_t first = 0;
    std::vector<std::size_t> more;
  };
  using NameMap = detail::FlatNameMap<Owners>;

  static Def item_def(std::size_t i) { return Def{false, static_cast<std::uint32_t>(i)}; }
  std::size_t index_of(const Kind* k) const { return static_cast<std::size_t>(k - kinds_.kinds().data()); }

  // A base definition the overlay holds: not damaged, and at no path the
  // changeset changed.
  std::optional<BaseDefinitions::Def> usable(std::size_t d) const {
    auto b = base_.def(d);
    if (!b || (filter_ && changed_paths_.count(b->path))) return std::nullopt;
    return b;
  }
  std::string_view path(Def d) const {
    if (!d.base) return items_[d.i].view.path;
    auto b = base_.def(d.i);
    return b ? b->path : std::string_view();
  }
  RecordView rec(Def d) const {
    if (!d.base) return items_[d.i].view.rec;
    auto b = base_.def(d.i);
    return b ? b->rec : RecordView();
  }
  bool changed(Def d) const { return !d.base; }
  bool checked(Def d) const {
    if (!d.base) return items_[d.i].checked;
    auto b = base_.def(d.i);
    return b && b->item != BaseDefinitions::kNoItem && b->item < items_.size() && items_[b->item].checked;
  }

  // Every definition of the overlay named `name` of kind `k`, in path order.
  std::vector<Def> owners(const Kind* k, std::string_view name) const {
    std::vector<Def> out;
    if (const Owners* o = table_[index_of(k)].find(name)) {
      out.push_back(item_def(o->first));
      for (std::size_t m : o->more) out.push_back(item_def(m));
    }
    std::size_t changed_owners = out.size();
    base_.owners(index_of(k), name, [&](std::size_t d) {
      if (usable(d)) out.push_back(Def{true, static_cast<std::uint32_t>(d)});
    });
    if (changed_owners > 0 && out.size() > changed_owners)
      std::sort(out.begin(), out.end(), [&](Def a, Def b) { return path(a) < path(b); });
    return out;
  }

  bool has_member(const Kind* k, const std::vector<Def>& owners, std::string_view member) const {
    if (is_implicit(*k, member)) return true;
    return std::any_of(owners.begin(), owners.end(), [&](Def d) { return rec(d).has_member(member); });
  }

  void collect_changed_paths() {
    if (!filter_) return;
    for (const auto& it : items_) {
      if (!it.changed) continue;
      changed_paths_.insert(it.entry->path);
      if (!it.entry->old_path.empty()) changed_paths_.insert(it.entry->old_path);
    }
    // Names the base defines only at changed paths are not in the overlay
    // (unless a changed item defines them again): they must not be suggested.
    for (std::string_view p : changed_paths_) {
      auto d = base_.find_path(p);
      if (!d) continue;
      auto b = base_.def(*d);
      if (!b || !b->rec.has_name()) continue;
      bool kept = false;
      base_.owners(index_of(b->kind), b->rec.name(), [&](std::size_t o) { kept = kept || usable(o).has_value(); });
      if (!kept) hidden_.insert(symbol_key(b->kind->name, b->rec.name()));
    }
  }

  void build_table() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Side& v = items_[i].view;
      if (!items_[i].changed || !v.present || !v.kind || !v.rec.has_name()) continue;
      auto [at, fresh] = table_[index_of(v.kind)].try_emplace(v.rec.name());
      if (fresh) at->second.first = i;
      else at->second.more.push_back(i);
    }
  }

  void check_duplicates() {
    // A name is reported as a duplicate when one of its owners is checked:
    // one a changed item carries, or with --all one the base carries twice.
    std::vector<std::pair<const Kind*, std::string_view>> candidates;
    for (std::size_t k = 0; k < table_.size(); ++k)
      for (const auto& entry : table_[k]) candidates.emplace_back(&kinds_.kinds()[k], entry.first);
    if (all_)
      base_.shared_names([&](std::size_t k, std::string_view name) {
        if (k < kinds_.kinds().size() && !table_[k].find(name)) candidates.emplace_back(&kinds_.kinds()[k], name);
      });
    for (const auto& [kind, name] : candidates) {
      std::vector<Def> all = owners(kind, name);
      if (all.size() < 2 || std::none_of(all.begin(), all.end(), [&](Def d) { return checked(d); })) continue;
      for (Def d : all) {
        RecordView r = rec(d);
        Diagnostic diag = make_diag(DiagCode::duplicate_name, std::string(path(d)), r.name_span(),
                                    "duplicate " + kind_label(kind->name) + " name " + q(name));
        for (Def other : all)
          if (other.base != d.base || other.i != d.i)
            diag.notes.push_back(note_at(path(other), rec(other).name_span(), q(name) + " is also defined here"));
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
      std::vector<Def> now = owners(k, name);
      if (now.empty()) {
        symbols_.emplace(symbol_key(k->name, name), Removal{i, false});
        removed_names_.insert(name);
        removed_keys_.emplace_back(index_of(k), name);
        continue;
      }
      it.base.rec.for_each_member([&](const MemberView& m) {
        if (!has_member(k, now, m.name)) {
          members_.emplace(member_key(k->name, name, m.name), Removal{i, true});
          removed_names_.insert(name);
          removed_keys_.emplace_back(index_of(k), name);
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

  void check_refs(Def def) {
    const RecordView record = rec(def);
    const std::string where(path(def));
    record.for_each_ref([&](const RefView& r) {
      const Kind* k = kinds_.by_name(r.target_kind);
      if (!k) return;
      const std::vector<Def> now = owners(k, r.name);
      if (!now.empty() && (r.member.empty() || has_member(k, now, r.member))) return;
      if (now.empty() && owner_reported_elsewhere(record, r)) return;
      const Removal* rem = removal_for(r);
      if (rem && !changed(def)) {
        out_.push_back(broken(where, r, *k, *rem));
        return;
      }
      // A changed file still using what the changeset removed: the note
      // that says what happened beats a guess at what was meant.
      if (now.empty()) {
        Diagnostic d = make_diag(DiagCode::unresolved_reference, where, r.span, unresolved_message(r, *k));
        if (rem) d.notes.push_back(removal_note(r, *k, *rem));
        else if (auto best = closest_name(k, r.name)) d.notes.push_back(plain_note("did you mean " + q(*best) + "?"));
        out_.push_back(std::move(d));
        return;
      }
      Diagnostic d = make_diag(DiagCode::unknown_member, where, r.span, member_message(r, *k));
      if (rem) {
        d.notes.push_back(removal_note(r, *k, *rem));
      } else {
        Suggester s(r.member);
        for (const auto& m : k->implicit_members) s.consider(m);
        for (Def o : now) rec(o).for_each_member([&](const MemberView& m) { s.consider(m.name); });
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
      for (const auto& entry : table_[index_of(k)]) s.consider(entry.first);
      base_.names(index_of(k), [&](std::string_view n) {
        if (hidden_.empty() || !hidden_.count(symbol_key(k->name, n))) s.consider(n);
      });
      it->second = s.best();
    }
    return it->second;
  }

  // Unchanged definitions against the removals (with --all, check_refs has
  // already seen every one of them): those the index lists as referring to
  // a removed name, or, in an index without that table, every one, each
  // independently of the others — past kParallelScan definitions split over
  // the cores, each part's findings kept apart and appended in order, as
  // one thread would have found them.
  static constexpr std::size_t kParallelScan = 20000;

  void reverse_scan() {
    if (all_ || (symbols_.empty() && members_.empty())) return;
    if (base_.has_references()) {
      std::vector<std::size_t> referrers;
      for (const auto& [k, name] : removed_keys_) base_.referrers(k, name, [&](std::size_t d) { referrers.push_back(d); });
      std::sort(referrers.begin(), referrers.end());
      referrers.erase(std::unique(referrers.begin(), referrers.end()), referrers.end());
      for (std::size_t d : referrers) scan_one(d, out_);
      return;
    }
    const std::size_t n = base_.size();
    const std::size_t parts = n >= kParallelScan ? std::min<std::size_t>(worker_count(), 8) : 1;
    std::vector<std::vector<Diagnostic>> found(parts);
    std::vector<std::exception_ptr> failed(parts);
    parallel_for(parts, [&](std::size_t p) {
      try {
        for (std::size_t d = p * n / parts; d < (p + 1) * n / parts; ++d) scan_one(d, found[p]);
      } catch (...) {
        failed[p] = std::current_exception();  // nothing may escape a thread; rethrown below
      }
    });
    for (const auto& e : failed)
      if (e) std::rethrow_exception(e);
    for (auto& f : found) out_.insert(out_.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
  }

  void scan_one(std::size_t d, std::vector<Diagnostic>& out) const {
    auto removed = [this](std::string_view name) { return removed_names_.may_hold(name); };
    auto b = usable(d);
    if (!b) return;
    b->rec.for_each_ref_if(removed, [&](const RefView& r) {
      const Removal* rem = removal_for(r);
      if (!rem || !items_[rem->cause].in_scope) return;
      if (!rem->member && owner_reported_elsewhere(b->rec, r)) return;
      const Kind* k = kinds_.by_name(r.target_kind);
      if (k) out.push_back(broken(std::string(b->path), r, *k, *rem));
    });
  }

  // An unchanged definition's reference to what the changeset removed.
  Diagnostic broken(std::string where, const RefView& r, const Kind& k, const Removal& rem) const {
    Diagnostic d = make_diag(DiagCode::broken_by_change, std::move(where), r.span,
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
  const BaseDefinitions& base_;
  bool filter_;
  bool all_;
  std::vector<Diagnostic>& out_;
  std::vector<NameMap> table_;  // changed items' names, per kind, by index in kinds_.kinds()
  std::unordered_set<std::string_view> changed_paths_;  // with filter_
  std::unordered_set<std::string> hidden_;  // symbol keys of base names the overlay lost
  std::unordered_map<std::string, Removal> symbols_;
  std::unordered_map<std::string, Removal> members_;
  std::vector<std::pair<std::size_t, std::string_view>> removed_keys_;  // (kind, name) of both
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

void check_symbols(const KindPack& kinds, const std::vector<Item>& items, const BaseDefinitions& base,
                   bool base_has_changed_paths, bool all, std::vector<Diagnostic>& out) {
  Checker(kinds, items, base, base_has_changed_paths, all, out).run();
  check_include_cycles(kinds, items, base, base_has_changed_paths, all, out);
}

}  // namespace ws::compile_detail
