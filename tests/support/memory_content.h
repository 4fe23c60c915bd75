// A view on memory: entries and bytes given by the test, no git, no disk.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "libcheck/kinds.h"
#include "libcheck/repository.h"
#include "libcheck/view.h"

namespace wstest {

// The source tree's default kind pack (schemas/kinds), loaded once; a pack
// that does not load fails the test that asked for it.
inline const ws::KindPack& default_kind_pack() {
  static const ws::KindPack pack = [] {
    auto loaded = ws::KindPack::load(WS_SOURCE_DIR "/schemas/kinds");
    if (!loaded) throw std::runtime_error("cannot load schemas/kinds: " + loaded.error().message);
    return std::move(loaded).value();
  }();
  return pack;
}

class MemoryContent final : public ws::ContentSource {
 public:
  std::map<std::string, std::string> blobs;  // blob id -> bytes

  // Stores `bytes` and returns its git blob id.
  std::string put(const std::string& bytes) {
    std::string id = ws::Repository::hash_blob(bytes);
    blobs[id] = bytes;
    return id;
  }
  ws::ObjectId put_id(const std::string& bytes) { return ws::ObjectId::from_hex(put(bytes)); }
  ws::Result<std::string> read(const ws::ViewEntry& e) const override {
    return read_blob((e.status == ws::ChangeStatus::deleted ? e.base_blob_id : e.blob_id).hex());
  }
  ws::Result<std::string> read_blob(const std::string& id) const override {
    auto it = blobs.find(id);
    if (it == blobs.end()) return ws::make_error(ws::Errc::not_found, "no blob " + id);
    return it->second;
  }
  std::optional<std::uint64_t> size_of(const ws::ViewEntry& e) const override {
    auto r = read(e);
    return r ? std::optional<std::uint64_t>(r->size()) : std::nullopt;
  }
};

// Builds entries from (path, status, bytes, base bytes) rows.
struct MemoryFile {
  std::string path;
  ws::ChangeStatus status = ws::ChangeStatus::unchanged;
  std::string bytes;       // view bytes (unused for deleted)
  std::string base_bytes;  // base bytes for modified/deleted; ignored for added
};

// `content_out`: where to keep the bytes' store, for a test that adds more
// (the view's own content() is wrapped, secrets.h).
inline ws::View memory_view(const std::vector<MemoryFile>& files,
                            std::shared_ptr<MemoryContent>* content_out = nullptr) {
  auto content = std::make_shared<MemoryContent>();
  if (content_out) *content_out = content;
  std::vector<ws::ViewEntry> entries;
  for (const auto& f : files) {
    ws::ViewEntry e;
    e.path = f.path;
    e.status = f.status;
    switch (f.status) {
      case ws::ChangeStatus::unchanged:
        e.blob_id = e.base_blob_id = content->put_id(f.bytes);
        break;
      case ws::ChangeStatus::added:
      case ws::ChangeStatus::renamed:
        e.blob_id = content->put_id(f.bytes);
        break;
      case ws::ChangeStatus::modified:
        e.blob_id = content->put_id(f.bytes);
        e.base_blob_id = content->put_id(f.base_bytes);
        break;
      case ws::ChangeStatus::deleted:
        e.blob_id = e.base_blob_id = content->put_id(f.base_bytes);
        break;
    }
    e.size = f.bytes.size();
    entries.push_back(std::move(e));
  }
  return ws::View(std::move(entries), content, "");
}

}  // namespace wstest
