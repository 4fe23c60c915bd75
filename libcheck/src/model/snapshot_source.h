// The bytes a working-tree view read while it was computed, kept so that the
// build reads each changed file once: the status hashes a changed file's
// bytes through the confined reader to give it its id, and without these
// the compile would read and hash the same file again to key the cache
// (a tenth of a warm ws-build of a small workspace: two more reads and two
// more collision-detecting SHA-1 passes per changed file). The kept bytes
// are exactly those that were hashed, so read() of such an entry returns
// bytes whose blob id is entry.blob_id by construction.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "libcheck/view.h"

namespace ws::detail {

// A file's bytes and the blob id they hash to.
struct KeptBytes {
  std::string path;
  ObjectId id;
  std::string bytes;
};

class SnapshotContentSource final : public ContentSource {
 public:
  SnapshotContentSource(std::shared_ptr<const ContentSource> inner, std::vector<KeptBytes> kept);

  Result<std::string> read(const ViewEntry& e) const override;
  Result<std::string> read_blob(const std::string& blob_id) const override { return inner_->read_blob(blob_id); }
  std::optional<std::uint64_t> size_of(const ViewEntry& e) const override { return inner_->size_of(e); }
  std::optional<Error> refusal(const ViewEntry& e) const override { return inner_->refusal(e); }
  bool refuses_none() const override { return inner_->refuses_none(); }
  bool reads_blob_id(const ViewEntry& e) const override;

 private:
  const KeptBytes* kept_for(const ViewEntry& e) const;

  std::shared_ptr<const ContentSource> inner_;
  std::vector<KeptBytes> kept_;
  std::unordered_map<std::string_view, std::size_t> by_path_;
};

}  // namespace ws::detail
