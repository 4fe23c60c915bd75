// The saved index of a base commit as what it knows of the unchanged
// definitions (compile.h, saved_base_definitions), for the queries that
// can take a definition's reading from it instead of parsing the file.
#include <memory>
#include <optional>
#include <string>

#include "base_index.h"
#include "libcheck/compile.h"
#include "libcheck/known_definitions.h"

namespace ws {

namespace compile_detail {

BaseIndex::Key base_index_key(const Workspace& ws) {
  return BaseIndex::Key{cache_version(), ws.kinds.digest(), ws.view.base_commit(), ws.config.size_cap};
}

namespace {

// Over `kinds`, the workspace's own, which must outlive it.
class SavedBase final : public KnownDefinitions {
 public:
  SavedBase(const KindPack& kinds, BaseIndex index) : kinds_(kinds), index_(std::move(index)) {}

  // find_path checks the definition's saved bytes before it answers: a
  // damaged one is not known, and its file is read as any other.
  bool knows(std::string_view path) const override { return index_.find_path(path).has_value(); }

  void referrers(const Kind& kind, std::string_view name,
                 const std::function<void(std::string_view path)>& f) const override {
    if (auto at = number_of(kind))
      index_.referrers(*at, name, [&](std::size_t d) {
        if (auto def = index_.def(d)) f(def->path);
      });
  }

  void definers(const Kind& kind, std::string_view name,
                const std::function<void(std::string_view path)>& f) const override {
    if (auto at = number_of(kind))
      index_.owners(*at, name, [&](std::size_t d) {
        if (auto def = index_.def(d)) f(def->path);
      });
  }

  void names(const Kind& kind, const std::function<void(std::string_view name, std::string_view path)>& f) const override {
    auto at = number_of(kind);
    if (!at) return;
    index_.names(*at, [&](std::string_view name) {
      index_.owners(*at, name, [&](std::size_t d) {
        if (auto def = index_.def(d)) f(name, def->path);
      });
    });
  }

  std::optional<Definition> definition(std::string_view path) const override {
    auto d = index_.find_path(path);
    if (!d) return std::nullopt;
    auto def = index_.def(*d);
    // A secret is known by its name alone: it has no reading to give.
    if (!def || def->name_only || !def->kind) return std::nullopt;
    return def->rec.decode(std::string(path), def->kind->name);
  }

 private:
  // The kind's number in the pack, which the index keys names by.
  std::optional<std::size_t> number_of(const Kind& kind) const {
    const auto at = static_cast<std::size_t>(&kind - kinds_.kinds().data());
    if (at >= kinds_.kinds().size()) return std::nullopt;
    return at;
  }

  const KindPack& kinds_;
  BaseIndex index_;
};

}  // namespace

}  // namespace compile_detail

std::unique_ptr<KnownDefinitions> saved_base_definitions(const Workspace& ws) {
  if (!ws.repo || ws.view.base_commit().empty()) return nullptr;
  using compile_detail::BaseIndex;
  BaseIndex::Key key = compile_detail::base_index_key(ws);
  BaseIndex index;
  std::string file = compile_detail::base_index_file(ws.repo->common_dir(), key.base_commit);
  if (index.load(file, key, ws.kinds).state != BaseIndex::LoadState::loaded) return nullptr;
  return std::make_unique<compile_detail::SavedBase>(ws.kinds, std::move(index));
}

}  // namespace ws
