// The never-read kinds of the base, kept in the view's pack (base_kinds.h).
#include "base_kinds.h"

#include <optional>
#include <string_view>
#include <vector>

#include "libcheck/workspace.h"

namespace ws {

namespace {

// The base's kind manifests when the view's (`overlay`) differ from them,
// else nullopt. Compared by blob id, so the base's are read only when they
// differ: a view that does not tell changes (ws-grep's) is covered too.
Result<std::optional<std::map<std::string, std::string>>> differing_base_manifests(
    const Repository& repo, const std::string& base_commit, const std::map<std::string, std::string>& overlay) {
  std::vector<ViewEntry> entries;
  if (!base_commit.empty()) {
    auto listed = repo.commit_entries(base_commit, ".ws/kinds/");
    if (!listed) return listed.error();
    std::erase_if(*listed, [](const ViewEntry& e) {
      return !is_kind_manifest_path(e.path) || is_link_mode(e.mode);
    });
    entries = std::move(listed).value();
  }
  bool same = entries.size() == overlay.size();
  for (std::size_t i = 0; same && i < entries.size(); ++i) {
    auto it = overlay.find(entries[i].path);
    same = it != overlay.end() && Repository::hash_blob(it->second) == entries[i].blob_id.hex();
  }
  if (same) return std::optional<std::map<std::string, std::string>>();
  std::map<std::string, std::string> out;
  for (const auto& e : entries) {
    auto text = repo.read_blob(e.blob_id.hex());
    if (!text) return text.error();
    out[e.path] = std::move(text).value();
  }
  return std::optional(std::move(out));
}

// Whether a file whose name ends with `a` can end with `b` too (an empty
// extension takes any name).
bool extensions_overlap(std::string_view a, std::string_view b) {
  return a.empty() || b.empty() || a.ends_with(b) || b.ends_with(a);
}

// What is never read is the base's decision, never the change's (ws(7),
// KIND MANIFESTS): every kind the base's pack never reads keeps
// its folder and file names in `view_pack`, still never read, and no kind
// that reads its files may claim them.
Status keep_never_read(const KindPack& base_pack, const KindPack& view_pack) {
  for (const Kind& b : base_pack.kinds()) {
    if (!b.never_read) continue;
    auto refused = [&](const std::string& manifest, const std::string& what, const std::string& todo) {
      return make_error(Errc::invalid,
                        "kind manifest '" + manifest + "': " + what + ", which the base commit never reads; what "
                            "is never read is the base's to decide: " + todo,
                        manifest);
    };
    const Kind* v = view_pack.by_name(b.name);
    if (!v) return refused(b.source, "the change removes kind '" + b.name + "'", "restore the manifest");
    if (!v->never_read || v->dir != b.dir || v->extension != b.extension)
      return refused(v->source, "the change makes kind '" + b.name + "' readable or moves its files",
                     "restore the manifest");
    for (const Kind& other : view_pack.kinds())
      if (!other.never_read && other.dir == b.dir && extensions_overlap(other.extension, b.extension))
        return refused(other.source, "kind '" + other.name + "' would read the files of kind '" + b.name + "'",
                       "give kind '" + other.name + "' other files");
  }
  return Ok{};
}

}  // namespace

Status keep_base_never_read(const Repository& repo, const std::string& base_commit,
                            const std::map<std::string, std::string>& defaults,
                            const std::map<std::string, std::string>& overlay, const KindPack& view_pack) {
  auto base_overlay = differing_base_manifests(repo, base_commit, overlay);
  if (!base_overlay) return base_overlay.error();
  if (!*base_overlay) return Ok{};
  auto base_pack = KindPack::from_texts(defaults, **base_overlay);
  if (!base_pack) return Ok{};
  return keep_never_read(*base_pack, view_pack);
}

}  // namespace ws
