// What the compile's checks ask of the definitions a changeset leaves
// alone (compile_check.cpp): who defines a name, who refers to one, which
// definition is at a path. Two answer it: the unchanged items of a build
// that read the whole view (UnchangedItems, below), and the saved index of
// a base commit (base_index.h), which lets a build read the changes only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "compile_internal.h"
#include "flat_name_map.h"
#include "libcheck/kinds.h"

namespace ws::compile_detail {

class BaseDefinitions {
 public:
  static constexpr std::uint32_t kNoItem = 0xffffffffu;

  virtual ~BaseDefinitions() = default;

  struct Def {
    std::string_view path;
    const Kind* kind = nullptr;
    RecordView rec;
    std::uint32_t item = kNoItem;  // its item in the build, if it has one
    bool name_only = false;        // read from its name alone (a secret)
  };

  virtual std::size_t size() const = 0;
  // Definition `d` (below size()), in path order; nullopt, and damaged()
  // true from then on, when its bytes fail their check.
  virtual std::optional<Def> def(std::size_t d) const = 0;

  // A number for each (kind, name) that a definition carries, below
  // name_numbers(), or kNoNumber: a walk over thousands of definitions
  // (impact_walk.cpp) tells their names apart, and finds who refers to
  // them, by number instead of by hashing their bytes. A base that numbers
  // no names answers kNoNumber throughout.
  static constexpr std::uint32_t kNoNumber = 0xffffffffu;
  virtual std::size_t name_numbers() const { return 0; }
  // The number of (kind, name), or kNoNumber when no definition carries it.
  virtual std::uint32_t number_of(std::size_t kind, std::string_view name) const {
    (void)kind;
    (void)name;
    return kNoNumber;
  }

  // What a walk over many definitions shows of one (impact_walk.cpp): its
  // path, kind and name, vouched for as def() vouches for them, without the
  // rest of its record (a base index reads only what its load checked).
  struct Named {
    std::string_view path;
    const Kind* kind = nullptr;
    bool has_name = false;
    std::string_view name;
    std::uint32_t number = kNoNumber;  // the name's
  };
  // A hint that named(d) comes soon: `stage` 0 fetches what says where its
  // bytes are, stage 1 (a little later) the bytes themselves. A walk over
  // thousands of definitions of a large index otherwise waits on memory
  // for each, one after another.
  virtual void prefetch_named(std::size_t d, int stage) const {
    (void)d;
    (void)stage;
  }
  // What keeps the path and name bytes named() gives valid once this is
  // gone; null when they live no longer than it, and a caller that keeps
  // them must copy them.
  virtual std::shared_ptr<const void> bytes_owner() const { return nullptr; }
  virtual std::optional<Named> named(std::size_t d) const {
    auto x = def(d);
    if (!x) return std::nullopt;
    return Named{x->path, x->kind, x->rec.has_name(), x->rec.has_name() ? x->rec.name() : std::string_view()};
  }
  // True once a definition or a table was found damaged: answers given
  // since may be wrong, and the build must be made without them.
  virtual bool damaged() const { return false; }

  // The definition at `path`, if any.
  virtual std::optional<std::size_t> find_path(std::string_view path) const = 0;
  // The definitions named `name` of kind `kind` (its index in the pack), ascending.
  virtual void owners(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const = 0;
  // Whether referrers() can answer; else the checks read every definition.
  virtual bool has_references() const = 0;
  // The definitions with a reference to `name` of kind `kind`, ascending.
  virtual void referrers(std::size_t kind, std::string_view name,
                         const std::function<void(std::size_t)>& f) const = 0;
  // referrers() of each of `names` in turn, appended to `out`, `ends`
  // gaining where each one's stretch ends: the impact walk asks it of
  // thousands of names at once, and a base index answers without a call
  // per definition, finds a numbered name's list from its number and
  // fetches a few names ahead.
  struct WalkName {
    std::size_t kind = 0;
    std::string_view name;
    std::uint32_t number = kNoNumber;  // number_of(kind, name)
  };
  virtual void append_referrers_of(const std::vector<WalkName>& names, std::vector<std::size_t>& out,
                                   std::vector<std::size_t>& ends) const {
    for (const WalkName& n : names) {
      referrers(n.kind, n.name, [&](std::size_t d) { out.push_back(d); });
      ends.push_back(out.size());
    }
  }
  // Every name of kind `kind`.
  virtual void names(std::size_t kind, const std::function<void(std::string_view)>& f) const = 0;
  // Every (kind, name) that two definitions or more carry.
  virtual void shared_names(const std::function<void(std::size_t kind, std::string_view name)>& f) const = 0;
};

// The view sides of the items that `take` accepts and that are present, as
// one build has them in memory (which must outlive this, as must `kinds`):
// a name table per kind and nothing else, no reference table (a build that
// removes nothing never needs one).
class UnchangedItems final : public BaseDefinitions {
 public:
  UnchangedItems(const KindPack& kinds, const std::vector<Item>& items, const std::function<bool(const Item&)>& take);

  std::size_t size() const override { return numbers_.size(); }
  std::optional<Def> def(std::size_t d) const override;
  std::optional<std::size_t> find_path(std::string_view path) const override;
  void owners(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const override;
  bool has_references() const override { return false; }
  void referrers(std::size_t, std::string_view, const std::function<void(std::size_t)>&) const override {}
  void names(std::size_t kind, const std::function<void(std::string_view)>& f) const override;
  void shared_names(const std::function<void(std::size_t kind, std::string_view name)>& f) const override;

 private:
  // The definitions carrying one name: almost always one, kept inline, so
  // only duplicates allocate.
  struct Owners {
    std::uint32_t first = 0;
    std::vector<std::uint32_t> more;
  };
  const KindPack& kinds_;
  const std::vector<Item>& items_;
  std::vector<std::uint32_t> numbers_;                  // definition -> item
  std::vector<detail::FlatNameMap<Owners>> by_kind_;  // by index in kinds_.kinds()
};

}  // namespace ws::compile_detail
