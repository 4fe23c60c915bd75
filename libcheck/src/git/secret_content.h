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

// Learns the size of each secret from its object header (git_odb_read_header,
// which never inflates the content), so that a working-tree file is hashed
// only when its size is a secret's (SecretBlobs::holds_bytes). A view over
// the working tree calls it once its ids are gathered; an id whose object is
// missing stays of unknown size, and every working-tree file is then hashed.
Status measure_secrets(git_repository* repo, SecretBlobs& secrets);

// The refusal read() gives for a secret's bytes: the rule `secret` for a
// path under '.secrets/', secret_bytes_refusal() for another path.
Error secret_read_refusal(const ViewEntry& e);

// Wraps a view's content source so that nothing the view calls a secret is
// read, sized or handed out by id, whichever way a caller asks: read() of
// an entry under '.secrets/' or carrying a secret's id, read_blob() of a
// secret's id, size_of() of either. Bytes read from the working tree that
// the inner source cannot vouch for by id (an untracked file, one edited
// since the index saw it, one that changed after the view was made) are
// judged by what was read: a secret's bytes are refused under any path
// (SecretBlobs::holds_bytes, which hashes only bytes of a secret's size).
class SecretGuardSource final : public ContentSource {
 public:
  SecretGuardSource(std::shared_ptr<const ContentSource> inner, std::shared_ptr<const SecretBlobs> secrets)
      : inner_(std::move(inner)), secrets_(std::move(secrets)) {}

  Result<std::string> read(const ViewEntry& e) const override;
  Result<std::string> read_blob(const std::string& blob_id) const override;
  std::optional<std::uint64_t> size_of(const ViewEntry& e) const override;
  std::optional<Error> refusal(const ViewEntry& e) const override;
  // A secret is never refused by refusal() (above), so none is when the
  // inner source refuses none.
  bool refuses_none() const override { return inner_->refuses_none(); }
  bool reads_blob_id(const ViewEntry& e) const override { return inner_->reads_blob_id(e); }

  const std::shared_ptr<const ContentSource>& inner() const { return inner_; }

 private:
  bool secret(const ViewEntry& e) const;
  // Whether bytes read for `e` come from the working tree unvouched by id.
  bool unvouched_worktree_bytes(const ViewEntry& e) const;

  std::shared_ptr<const ContentSource> inner_;
  std::shared_ptr<const SecretBlobs> secrets_;
};

}  // namespace ws::detail
