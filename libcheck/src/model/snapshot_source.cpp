#include "snapshot_source.h"

namespace ws::detail {

SnapshotContentSource::SnapshotContentSource(std::shared_ptr<const ContentSource> inner, std::vector<KeptBytes> kept)
    : inner_(std::move(inner)), kept_(std::move(kept)) {
  by_path_.reserve(kept_.size());
  for (std::size_t i = 0; i < kept_.size(); ++i) by_path_.emplace(kept_[i].path, i);
}

const KeptBytes* SnapshotContentSource::kept_for(const ViewEntry& e) const {
  // Only the working-tree side of an entry, and only while the view still
  // names the bytes that were kept.
  if (!e.from_worktree || e.status == ChangeStatus::deleted || e.blob_id.empty()) return nullptr;
  auto it = by_path_.find(e.path);
  if (it == by_path_.end()) return nullptr;
  const KeptBytes& k = kept_[it->second];
  return k.id == e.blob_id ? &k : nullptr;
}

Result<std::string> SnapshotContentSource::read(const ViewEntry& e) const {
  if (const KeptBytes* k = kept_for(e)) return k->bytes;
  return inner_->read(e);
}

bool SnapshotContentSource::reads_blob_id(const ViewEntry& e) const {
  return kept_for(e) != nullptr || inner_->reads_blob_id(e);
}

}  // namespace ws::detail
