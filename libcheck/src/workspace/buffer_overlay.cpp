// The editor's buffers over a view (buffer_overlay.h): each buffer becomes
// the view's entry for its path, read from memory; everything else is read
// as the view read it.
#include "libcheck/buffer_overlay.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "blob_id.h"
#include "libcheck/path_policy.h"

namespace ws {

namespace {

// The view's content with the buffers' bytes in place of the disk's.
class BufferContent final : public ContentSource {
 public:
  BufferContent(std::shared_ptr<const ContentSource> under, Buffers buffers)
      : under_(std::move(under)), buffers_(std::move(buffers)) {}

  Result<std::string> read(const ViewEntry& e) const override {
    if (const std::string* b = buffer(e)) return *b;
    return under_->read(e);
  }
  Result<std::string> read_blob(const std::string& blob_id) const override { return under_->read_blob(blob_id); }
  std::optional<std::uint64_t> size_of(const ViewEntry& e) const override {
    if (const std::string* b = buffer(e)) return b->size();
    return under_->size_of(e);
  }
  std::optional<Error> refusal(const ViewEntry& e) const override {
    if (buffer(e)) return std::nullopt;
    return under_->refusal(e);
  }
  bool refuses_none() const override { return under_->refuses_none(); }
  bool reads_blob_id(const ViewEntry& e) const override { return buffer(e) || under_->reads_blob_id(e); }

 private:
  // A deleted entry is read as the base has it, never from a buffer.
  const std::string* buffer(const ViewEntry& e) const {
    if (e.status == ChangeStatus::deleted) return nullptr;
    auto it = buffers_.find(e.path);
    return it == buffers_.end() ? nullptr : &it->second;
  }

  std::shared_ptr<const ContentSource> under_;
  Buffers buffers_;
};

// The buffers the view may take, with the base's entry of each path the
// view does not hold (a changes-only view leaves unchanged files out).
struct Taken {
  std::vector<std::pair<std::string, const std::string*>> buffers;  // path order
  std::map<std::string, std::optional<ViewEntry>, std::less<>> base;  // for paths absent from the view
};

Result<Taken> take_buffers(const Workspace& ws, const Buffers& buffers) {
  Taken t;
  std::vector<std::string> absent;
  for (const auto& [path, bytes] : buffers) {
    if (!is_overlay_path(path)) continue;
    t.buffers.emplace_back(path, &bytes);
    if (!ws.view.find(path)) absent.push_back(path);
  }
  if (absent.empty() || !ws.repo || ws.view.base_commit().empty()) return t;
  auto found = ws.repo->entries_at(ws.view.base_commit(), absent);
  if (!found) return found.error();
  for (std::size_t i = 0; i < absent.size(); ++i) t.base.emplace(absent[i], std::move((*found)[i]));
  return t;
}

// A renamed entry whose new side the buffer changes is a delete of the old
// path and an add of the new one: a rename pairs the same bytes only.
void split_rename(ViewEntry& e, std::vector<ViewEntry>& out) {
  ViewEntry gone;
  gone.path = e.old_path;
  gone.status = ChangeStatus::deleted;
  gone.blob_id = e.base_blob_id;
  gone.base_blob_id = e.base_blob_id;
  gone.mode = e.mode;
  out.push_back(std::move(gone));
  e.status = ChangeStatus::added;
  e.old_path.clear();
  e.base_blob_id.clear();
}

// Sets `e` to hold `bytes`; its base side (base_blob_id) stays.
void hold(ViewEntry& e, const std::string& bytes) {
  e.blob_id = ObjectId::from_hex(detail::blob_id_hex(bytes));
  e.size = bytes.size();
  e.from_worktree = false;
  if (e.base_blob_id.empty()) e.status = ChangeStatus::added;
  else e.status = e.blob_id == e.base_blob_id ? ChangeStatus::unchanged : ChangeStatus::modified;
}

}  // namespace

bool is_overlay_path(std::string_view path) {
  if (check_path(path, read_policy())) return false;
  if (is_secret_path(path) || is_workspace_config_path(path)) return false;
  return true;
}

Result<View> with_buffers(const Workspace& ws, const Buffers& buffers) {
  auto taken = take_buffers(ws, buffers);
  if (!taken) return taken.error();
  std::vector<ViewEntry> entries = ws.view.entries();
  std::vector<ViewEntry> added;
  Buffers held;
  for (const auto& [path, bytes] : taken->buffers) {
    auto it = std::lower_bound(entries.begin(), entries.end(), path,
                               [](const ViewEntry& e, const std::string& p) { return e.path < p; });
    if (it != entries.end() && it->path == path) {
      if (is_link_mode(it->mode)) continue;  // the editor shows the link's target, not the entry
      if (it->status == ChangeStatus::renamed) split_rename(*it, added);
      hold(*it, *bytes);
      held.emplace(path, *bytes);
      continue;
    }
    ViewEntry e;
    e.path = path;
    auto base = taken->base.find(path);
    if (base != taken->base.end() && base->second) {
      if (is_link_mode(base->second->mode)) continue;
      e.base_blob_id = base->second->blob_id;
      e.mode = base->second->mode;
    }
    hold(e, *bytes);
    held.emplace(path, *bytes);
    added.push_back(std::move(e));
  }
  for (ViewEntry& e : added) entries.push_back(std::move(e));
  // A changes-only view holds no unchanged entry.
  if (ws.view_spec.changes_only)
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const ViewEntry& e) {
                                   return e.status == ChangeStatus::unchanged && held.count(e.path) &&
                                          !is_workspace_config_path(e.path);
                                 }),
                  entries.end());
  auto content = std::make_shared<BufferContent>(ws.view.content_ptr(), std::move(held));
  return View(std::move(entries), std::move(content), ws.view.base_commit(), ws.view.secret_blobs());
}

}  // namespace ws
