// Where a view learns its secrets' blob ids (secrets.h), and the content
// source that refuses to read a secret under any path.
#pragma once

#include <git2.h>

#include <memory>
#include <optional>
#include <string>

#include "index_file.h"
#include "libcheck/result.h"
#include "libcheck/secrets.h"
#include "libcheck/view.h"

namespace ws::detail {

// Adds the blob ids below every top-level folder of `root` that is a
// spelling of '.secrets' (path_policy.h is_secret_folder). Reads those
// folders' trees only: a root without one costs a scan of its entries.
// `root` may be null (an unborn branch).
Status add_tree_secrets(git_repository* repo, const git_tree* root, SecretBlobs& out);

// The same for a commit's tree; an empty id adds nothing.
Status add_commit_secrets(git_repository* repo, const std::string& commit_hex, SecretBlobs& out);

// Adds the ids the index records for paths under '.secrets/': what the
// user staged there is known without reading the working tree. The index
// is sorted bytewise, so the scan stops at the first path past '.'.
void add_index_secrets(const IndexFile& index, SecretBlobs& out);
void add_index_secrets(git_index* index, SecretBlobs& out);

// The refusal read() gives for a secret's bytes: the rule `secret` for a
// path under '.secrets/', secret_bytes_refusal() for another path.
Error secret_read_refusal(const ViewEntry& e);

// Wraps a view's content source so that nothing the view calls a secret is
// read, sized or handed out by id, whichever way a caller asks: read() of
// an entry under '.secrets/' or carrying a secret's id, read_blob() of a
// secret's id, size_of() of either.
class SecretGuardSource final : public ContentSource {
 public:
  SecretGuardSource(std::shared_ptr<const ContentSource> inner, std::shared_ptr<const SecretBlobs> secrets)
      : inner_(std::move(inner)), secrets_(std::move(secrets)) {}

  Result<std::string> read(const ViewEntry& e) const override;
  Result<std::string> read_blob(const std::string& blob_id) const override;
  std::optional<std::uint64_t> size_of(const ViewEntry& e) const override;
  std::optional<Error> refusal(const ViewEntry& e) const override;
  bool reads_blob_id(const ViewEntry& e) const override { return inner_->reads_blob_id(e); }

  const std::shared_ptr<const ContentSource>& inner() const { return inner_; }

 private:
  bool secret(const ViewEntry& e) const;

  std::shared_ptr<const ContentSource> inner_;
  std::shared_ptr<const SecretBlobs> secrets_;
};

}  // namespace ws::detail
