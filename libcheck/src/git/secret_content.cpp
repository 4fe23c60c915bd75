#include "secret_content.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "printable_path.h"
#include "git_util.h"
#include "libcheck/kinds.h"
#include "libcheck/path_policy.h"
#include "libcheck/repository.h"

namespace ws {

void SecretBlobs::add_size(std::uint64_t size) {
  auto at = std::lower_bound(sizes_.begin(), sizes_.end(), size);
  if (at == sizes_.end() || *at != size) sizes_.insert(at, size);
}

void SecretBlobs::insert(const ObjectId& id, std::optional<std::uint64_t> size) {
  if (id.empty()) return;
  auto [at, added] = ids_.try_emplace(id, size);
  const unsigned bit = filter_bit(id);
  filter_[bit >> 6] |= std::uint64_t(1) << (bit & 63);
  if (added && !size) ++unsized_;
  if (!added && size && !at->second) {
    at->second = size;
    --unsized_;
  }
  if (size) add_size(*size);
}

void SecretBlobs::insert_all(const SecretBlobs& other) {
  for (const auto& [id, size] : other.ids_) insert(id, size);
}

void SecretBlobs::measure(const std::function<std::optional<std::uint64_t>(std::string_view)>& size_of) {
  if (unsized_ == 0) return;
  for (auto& [id, size] : ids_) {
    if (size) continue;
    size = size_of(id.hex());
    if (!size) continue;
    --unsized_;
    add_size(*size);
  }
}

bool SecretBlobs::holds_bytes(std::string_view bytes) const {
  if (ids_.empty()) return false;
  if (unsized_ == 0 && !std::binary_search(sizes_.begin(), sizes_.end(), std::uint64_t(bytes.size()))) return false;
  return contains(Repository::hash_blob(bytes));
}

bool never_read(const View& view, const ViewEntry& e, const Kind* kind) {
  return view.is_secret(e) || (kind && kind->never_read);
}

std::string secret_bytes_refusal(std::string_view path) {
  return "refused path '" + detail::printable_path(path) +
         "': secret (it holds the bytes of a secret, and a secret's content is never opened or shown under any "
         "path); remove the file or give it other content";
}

}  // namespace ws

namespace ws::detail {

namespace {

// Every blob id below `tree`, iteratively.
Status add_blobs_below(git_repository* repo, const git_tree* top, SecretBlobs& out) {
  std::vector<std::pair<git::Tree, int>> stack;
  git_tree* first = nullptr;
  if (git_tree_dup(&first, const_cast<git_tree*>(top)) < 0) return git::error(Errc::environment, "cannot read a tree");
  stack.emplace_back(git::Tree(first), 0);
  while (!stack.empty()) {
    auto [tree, depth] = std::move(stack.back());
    stack.pop_back();
    for (std::size_t i = 0, n = git_tree_entrycount(tree.get()); i < n; ++i) {
      const git_tree_entry* e = git_tree_entry_byindex(tree.get(), i);
      git_object_t type = git_tree_entry_type(e);
      if (type == GIT_OBJECT_BLOB) {
        out.insert(ObjectId::from_raw(git_tree_entry_id(e)->id));
      } else if (type == GIT_OBJECT_TREE) {
        // The one depth cap of every tree walk (path_policy.h): a hostile
        // tree nested further is refused rather than walked.
        if (depth + 2 > kMaxPathDepth) return make_error(Errc::invalid, "tree under '.secrets/' nested too deeply");
        git_tree* sub = nullptr;
        if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) < 0)
          return git::error(Errc::environment, "cannot read a tree under '.secrets/'");
        stack.emplace_back(git::Tree(sub), depth + 1);
      }
    }
  }
  return Ok{};
}

void add_index_entry(std::string_view path, const unsigned char* raw_id, SecretBlobs& out) {
  if (is_secret_path(path)) out.insert(ObjectId::from_raw(raw_id));
}

}  // namespace

Status add_tree_secrets(git_repository* repo, const git_tree* root, SecretBlobs& out) {
  if (!root) return Ok{};
  for (std::size_t i = 0, n = git_tree_entrycount(root); i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(root, i);
    if (!is_secret_folder(git_tree_entry_name(e))) continue;
    if (git_tree_entry_type(e) != GIT_OBJECT_TREE) continue;  // a file named '.secrets' is not content below it
    git_tree* sub = nullptr;
    if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) < 0)
      return git::error(Errc::environment, "cannot read the tree of '.secrets/'");
    git::Tree folder(sub);
    if (Status st = add_blobs_below(repo, folder.get(), out); !st) return st;
  }
  return Ok{};
}

Status add_commit_secrets(git_repository* repo, const std::string& commit_hex, SecretBlobs& out) {
  if (commit_hex.empty()) return Ok{};
  auto tree = git::commit_tree(repo, commit_hex);
  if (!tree) return tree.error();
  return add_tree_secrets(repo, tree->get(), out);
}

void add_index_secrets(const IndexFile& index, SecretBlobs& out) {
  for (const IndexEntry& e : index.entries()) {
    std::string_view path = index.path(e);
    if (!path.empty() && path.front() > '.') break;  // sorted: no later path starts with '.'
    add_index_entry(path, e.id, out);
  }
}

void add_index_secrets(git_index* index, SecretBlobs& out) {
  for (std::size_t i = 0, n = git_index_entrycount(index); i < n; ++i) {
    const git_index_entry* e = git_index_get_byindex(index, i);
    if (!e || !e->path) continue;
    std::string_view path = e->path;
    if (!path.empty() && path.front() > '.') break;
    add_index_entry(path, e->id.id, out);
  }
}

Status measure_secrets(git_repository* repo, SecretBlobs& secrets) {
  if (secrets.all_sized()) return Ok{};
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) < 0) return git::error(Errc::environment, "cannot open the object database");
  git::Odb odb(raw);
  secrets.measure([&](std::string_view hex) -> std::optional<std::uint64_t> {
    git_oid oid;
    std::size_t len = 0;
    git_object_t type;
    if (!git::from_hex(std::string(hex), oid) || git_odb_read_header(&len, &type, odb.get(), &oid) < 0)
      return std::nullopt;
    return len;
  });
  return Ok{};
}

Error secret_read_refusal(const ViewEntry& e) {
  if (is_secret_path(e.path)) {
    PathRejection why{PathRule::secret, e.path};
    return make_error(Errc::refused, why.message(), e.path, Rule::secret);
  }
  return make_error(Errc::refused, secret_bytes_refusal(e.path), e.path, Rule::secret);
}

bool SecretGuardSource::secret(const ViewEntry& e) const {
  const ObjectId& id = e.status == ChangeStatus::deleted ? e.base_blob_id : e.blob_id;
  return is_secret_path(e.path) || secrets_->contains(id);
}

bool SecretGuardSource::unvouched_worktree_bytes(const ViewEntry& e) const {
  return e.from_worktree && e.status != ChangeStatus::deleted && !inner_->reads_blob_id(e);
}

Result<std::string> SecretGuardSource::read(const ViewEntry& e) const {
  if (secret(e)) return secret_read_refusal(e);
  auto bytes = inner_->read(e);
  if (bytes && unvouched_worktree_bytes(e) && secrets_->holds_bytes(*bytes)) return secret_read_refusal(e);
  return bytes;
}

Result<std::string> SecretGuardSource::read_blob(const std::string& blob_id) const {
  if (secrets_->contains(blob_id))
    // No id in the message: it is the secret's.
    return make_error(Errc::refused, "refused to read a blob: it holds a secret's bytes, which are never opened", {},
                      Rule::secret);
  return inner_->read_blob(blob_id);
}

std::optional<std::uint64_t> SecretGuardSource::size_of(const ViewEntry& e) const {
  if (secret(e)) return std::nullopt;
  return inner_->size_of(e);
}

std::optional<Error> SecretGuardSource::refusal(const ViewEntry& e) const {
  if (secret(e)) return std::nullopt;
  return inner_->refusal(e);
}

}  // namespace ws::detail
