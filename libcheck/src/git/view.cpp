#include "libcheck/view.h"

#include <algorithm>
#include <map>

#include "libcheck/path_policy.h"
#include "libcheck/repository.h"
#include "secret_content.h"

namespace ws {

namespace {

// The ids of the entries under '.secrets/' known without reading them: a
// committed or staged id, never the hash of a changed working-tree file.
void add_entry_secrets(const std::vector<ViewEntry>& entries, SecretBlobs& out) {
  for (const ViewEntry& e : entries) {
    if (!e.old_path.empty() && is_secret_path(e.old_path)) out.insert(e.base_blob_id);
    if (!is_secret_path(e.path)) continue;
    out.insert(e.base_blob_id);
    if (!e.from_worktree || e.status == ChangeStatus::unchanged) out.insert(e.blob_id);
  }
}

}  // namespace

View::View() : secrets_(std::make_shared<const SecretBlobs>()) {}

View::View(std::vector<ViewEntry> entries, std::shared_ptr<const ContentSource> content,
           std::string base_commit, SecretBlobs secrets)
    : entries_(std::move(entries)), base_commit_(std::move(base_commit)) {
  auto by_path = [](const ViewEntry& a, const ViewEntry& b) { return a.path < b.path; };
  // open_view hands over sorted entries; only other callers pay for a sort.
  if (!std::is_sorted(entries_.begin(), entries_.end(), by_path)) std::sort(entries_.begin(), entries_.end(), by_path);
  add_entry_secrets(entries_, secrets);
  secrets_ = std::make_shared<const SecretBlobs>(std::move(secrets));
  content_ = std::make_shared<detail::SecretGuardSource>(std::move(content), secrets_);
}

bool View::is_secret_path_of(const ViewEntry& e) { return is_secret_path(e.path); }

bool View::is_secret(const ViewEntry& e) const {
  const ObjectId& id = e.status == ChangeStatus::deleted ? e.base_blob_id : e.blob_id;
  return is_secret_path(e.path) || secrets_->contains(id);
}

bool View::base_is_secret(const ViewEntry& e) const {
  return is_secret_path(e.old_path.empty() ? e.path : e.old_path) || secrets_->contains(e.base_blob_id);
}

bool View::bytes_are_secret(const ViewEntry& e, std::string_view bytes) const {
  if (is_secret(e)) return true;
  // An entry with a committed or staged id is judged by it (above); bytes
  // from the working tree, or with no id, by what they are, hashed only
  // when their size is a secret's.
  if (!e.from_worktree && !e.blob_id.empty()) return false;
  return secrets_->holds_bytes(bytes);
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

void detect_renames(std::vector<ViewEntry>& entries, const SecretBlobs* secrets) {
  auto secret = [&](const ViewEntry& e, const ObjectId& id) {
    return is_secret_path(e.path) || (secrets && secrets->contains(id));
  };
  // Deleted entries by the blob they carried; the first delete in path order pairs
  // with the first add of the same bytes, so the result is deterministic.
  std::multimap<ObjectId, std::size_t> deleted;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].status == ChangeStatus::deleted && !entries[i].base_blob_id.empty() &&
        !secret(entries[i], entries[i].base_blob_id))
      deleted.emplace(entries[i].base_blob_id, i);
  if (deleted.empty()) return;
  std::vector<bool> drop(entries.size(), false);
  std::size_t first_drop = entries.size();
  for (auto& e : entries) {
    if (e.status != ChangeStatus::added || e.blob_id.empty() || secret(e, e.blob_id)) continue;
    auto it = deleted.find(e.blob_id);
    if (it == deleted.end()) continue;
    const ViewEntry& gone = entries[it->second];
    if (gone.mode != e.mode) continue;
    e.status = ChangeStatus::renamed;
    e.old_path = gone.path;
    e.base_blob_id = gone.base_blob_id;
    drop[it->second] = true;
    first_drop = std::min(first_drop, it->second);
    deleted.erase(it);
  }
  // In place, from the first entry dropped (none: nothing moves): a copy of
  // 100,000 entries to drop a few was 2 % of a warm build.
  std::size_t out = first_drop;
  for (std::size_t i = first_drop; i < entries.size(); ++i) {
    if (drop[i]) continue;
    if (out != i) entries[out] = std::move(entries[i]);
    ++out;
  }
  entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(out), entries.end());
}

}  // namespace ws
