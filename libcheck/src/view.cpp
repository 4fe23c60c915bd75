#include "libcheck/view.h"

#include <algorithm>
#include <map>

namespace ws {

View::View(std::vector<ViewEntry> entries, std::shared_ptr<const ContentSource> content,
           std::string base_commit)
    : entries_(std::move(entries)), content_(std::move(content)), base_commit_(std::move(base_commit)) {
  auto by_path = [](const ViewEntry& a, const ViewEntry& b) { return a.path < b.path; };
  // open_view hands over sorted entries; only other callers pay for a sort.
  if (!std::is_sorted(entries_.begin(), entries_.end(), by_path)) std::sort(entries_.begin(), entries_.end(), by_path);
}

const ViewEntry* View::find(std::string_view path) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), path,
                             [](const ViewEntry& e, std::string_view p) { return e.path < p; });
  if (it == entries_.end() || it->path != path) return nullptr;
  return &*it;
}

std::vector<const ViewEntry*> View::changes() const {
  std::vector<const ViewEntry*> out;
  for (const auto& e : entries_)
    if (e.status != ChangeStatus::unchanged) out.push_back(&e);
  return out;
}

std::vector<std::string> View::list_dir(std::string_view dir) const {
  std::vector<std::string> out;
  auto it = std::lower_bound(entries_.begin(), entries_.end(), dir,
                             [](const ViewEntry& e, std::string_view p) { return e.path < p; });
  for (; it != entries_.end(); ++it) {
    std::string_view p = it->path;
    if (p.substr(0, dir.size()) != dir) break;
    if (it->status == ChangeStatus::deleted) continue;
    std::string_view rest = p.substr(dir.size());
    auto slash = rest.find('/');
    std::string name(slash == std::string_view::npos ? rest : rest.substr(0, slash + 1));
    if (out.empty() || out.back() != name) out.push_back(std::move(name));
  }
  return out;
}

void detect_renames(std::vector<ViewEntry>& entries) {
  // Deleted entries by the blob they carried; the first delete in path order pairs
  // with the first add of the same bytes, so the result is deterministic.
  std::multimap<std::string, std::size_t> deleted;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].status == ChangeStatus::deleted && !entries[i].base_blob_id.empty())
      deleted.emplace(entries[i].base_blob_id, i);
  if (deleted.empty()) return;
  std::vector<bool> drop(entries.size(), false);
  for (auto& e : entries) {
    if (e.status != ChangeStatus::added || e.blob_id.empty()) continue;
    auto it = deleted.find(e.blob_id);
    if (it == deleted.end()) continue;
    const ViewEntry& gone = entries[it->second];
    if (gone.mode != e.mode) continue;
    e.status = ChangeStatus::renamed;
    e.old_path = gone.path;
    e.base_blob_id = gone.base_blob_id;
    drop[it->second] = true;
    deleted.erase(it);
  }
  // Compacted in place: a second vector of every entry would touch as much
  // fresh memory again as the view itself.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) entries[kept] = std::move(entries[i]);
    ++kept;
  }
  entries.resize(kept);
}

}  // namespace ws
