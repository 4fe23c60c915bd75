// Building a view from git: base tree + pending changes (ws(7), VIEWS).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "git_attributes.h"
#include "git_util.h"
#include "index_file.h"
#include "index_refusal.h"
#include "odb_pool.h"
#include "tree_pair_walk.h"
#include "secret_content.h"
#include "view_internal.h"
#include "worktree_status.h"
#include "worktree_walk.h"
#include "libcheck/path_policy.h"
#include "libcheck/repository.h"
#include "libcheck/workspace_root.h"

namespace ws {

namespace {

// Bytes from the object database, and (for working-tree entries) from the
// confined root. Each reading thread borrows an odb of its own from the pool
// (odb_pool.h): libgit2 inflates under a per-odb lock.
class GitContentSource final : public ContentSource {
 public:
  GitContentSource(std::unique_ptr<detail::OdbPool> odbs, std::shared_ptr<const WorkspaceRoot> root,
                   std::uint64_t cap)
      : odbs_(std::move(odbs)), root_(std::move(root)), cap_(cap) {}

  Result<std::string> read(const ViewEntry& e) const override {
    if (is_secret_path(e.path))
      return make_error(Errc::refused, "refused to read '" + e.path + "': secret content is never opened",
                        e.path, Rule::secret);
    if (is_link_mode(e.mode))
      return make_error(Errc::refused,
                        "refused to read '" + e.path + "': " +
                            (e.mode == kModeLink ? "symlink (links are never followed)" : "submodule"),
                        e.path, e.mode == kModeLink ? Rule::symlink : Rule::submodule);
    if (!e.from_worktree || e.status == ChangeStatus::deleted) {
      const ObjectId& id = e.status == ChangeStatus::deleted ? e.base_blob_id : e.blob_id;
      auto too_large = [&](std::uint64_t size) { return too_large_error(e.path, size, cap_); };
      git_oid oid;
      if (!git::to_oid(id, oid)) return not_a_blob(id.hex());
      auto odb = odbs_->borrow();
      // The size from the object header first: a pushed gigabyte of zeros
      // is a few kilobytes compressed and must not be inflated to be refused.
      size_t len = 0;
      git_object_t type;
      if (git_odb_read_header(&len, &type, odb.get(), &oid) == 0 && len > cap_) return too_large(len);
      auto bytes = read_oid(odb.get(), oid);
      if (bytes && bytes->size() > cap_) return too_large(bytes->size());
      return bytes;
    }
    if (auto rej = check_path(e.path, read_policy()))
      return make_error(Errc::refused, rej->message(), e.path, to_rule(rej->rule));
    if (!root_) return make_error(Errc::environment, "no working tree to read '" + e.path + "' from", e.path);
    auto r = root_->read(e.path, cap_);
    if (!r.ok) {
      Errc code = r.error.rule == FileRule::too_large ? Errc::invalid
                  : r.error.rule == FileRule::io     ? Errc::environment
                                                     : Errc::refused;
      return make_error(code, r.error.message(), e.path, to_rule(r.error.rule));
    }
    return std::move(r.bytes);
  }

  Result<std::string> read_blob(const std::string& blob_id) const override {
    git_oid oid;
    if (!git::from_hex(blob_id, oid)) return not_a_blob(blob_id);
    auto odb = odbs_->borrow();
    return read_oid(odb.get(), oid);
  }

  bool refuses_none() const override { return walk_links_ && walk_links_->empty(); }

  std::optional<Error> refusal(const ViewEntry& e) const override {
    if (refuses_none()) return std::nullopt;  // the walk met no file with several links
    if (!root_ || !e.from_worktree || e.status == ChangeStatus::deleted || is_link_mode(e.mode) ||
        is_secret_path(e.path))
      return std::nullopt;
    std::optional<FileError> why;
    if (walk_links_) {
      auto it = walk_links_->find(e.path);
      if (it != walk_links_->end()) why = FileError{FileRule::hard_link, e.path, it->second};
    } else {
      why = root_->hard_link_refusal(e.path);
    }
    if (!why) return std::nullopt;
    return make_error(Errc::refused, why->message(), e.path, to_rule(why->rule));
  }

  // The link counts of the view's working-tree files as the status walk's
  // own stat found them (WorktreeStatus::hard_links): every working-tree
  // entry of such a view was met by that walk, so refusal() answers from
  // them instead of a second stat per file. read() still checks the file
  // it opens.
  void use_walk_links(const std::vector<std::pair<std::string, std::uint64_t>>& links) {
    walk_links_.emplace(links.begin(), links.end());
  }

  std::optional<std::uint64_t> size_of(const ViewEntry& e) const override {
    if (e.from_worktree && e.status != ChangeStatus::deleted && e.status != ChangeStatus::unchanged)
      return e.size ? std::optional(e.size) : std::nullopt;
    git_oid oid;
    const ObjectId& id = e.status == ChangeStatus::deleted ? e.base_blob_id : e.blob_id;
    if (!git::to_oid(id, oid)) return std::nullopt;
    size_t len = 0;
    git_object_t type;
    auto odb = odbs_->borrow();
    if (git_odb_read_header(&len, &type, odb.get(), &oid) < 0) return std::nullopt;
    return len;
  }

 private:
  static Error not_a_blob(const std::string& id) { return make_error(Errc::not_found, "not a blob id: '" + id + "'"); }

  static Result<std::string> read_oid(git_odb* odb, const git_oid& oid) {
    git_odb_object* raw = nullptr;
    if (git_odb_read(&raw, odb, &oid) < 0)
      return git::error(Errc::environment, "cannot read blob " + git::to_hex(oid));
    git::OdbObject obj(raw);
    return std::string(static_cast<const char*>(git_odb_object_data(obj.get())), git_odb_object_size(obj.get()));
  }

  std::unique_ptr<detail::OdbPool> odbs_;
  std::shared_ptr<const WorkspaceRoot> root_;
  std::uint64_t cap_;
  std::optional<std::unordered_map<std::string, std::uint64_t>> walk_links_;
};

Result<std::shared_ptr<GitContentSource>> content_of(git_repository* repo, std::shared_ptr<const WorkspaceRoot> root,
                                                   std::uint64_t size_cap) {
  auto odbs = detail::OdbPool::of(repo);
  if (!odbs) return odbs.error();
  return std::make_shared<GitContentSource>(std::move(odbs).value(), std::move(root), size_cap);
}

ChangeStatus status_of(git_delta_t d) {
  switch (d) {
    case GIT_DELTA_ADDED:
    case GIT_DELTA_UNTRACKED: return ChangeStatus::added;
    case GIT_DELTA_DELETED: return ChangeStatus::deleted;
    case GIT_DELTA_MODIFIED:
    case GIT_DELTA_TYPECHANGE: return ChangeStatus::modified;
    default: return ChangeStatus::unchanged;
  }
}

// The files of the working tree that git tracks or would track (untracked,
// not ignored), listed by walking the directories beneath the root without
// following links (worktree_walk.h) -- no status against the base, no stat
// of each file: what a search needs, at the cost of ripgrep's own walk.
Result<std::vector<ViewEntry>> list_worktree_files(const Repository& repository, const std::string& root_path,
                                                  SecretBlobs& secrets) {
  git_repository* repo = repository.raw();
  // What git tracks, from our own reader of the index file (no SHA-1 of the
  // whole file first); libgit2's when the file has what that reader refuses.
  detail::IndexFile fast = detail::IndexFile::read(repository.index_file());
  git::Index index;
  if (fast.state() == detail::IndexFile::State::unsupported) {
    git_index* iraw = nullptr;
    if (git_repository_index(&iraw, repo) < 0)
      return detail::index_load_error(repository.index_file(), git::error(Errc::environment, "cannot read the index"));
    index.reset(iraw);
    detail::add_index_secrets(index.get(), secrets);
  } else {
    detail::add_index_secrets(fast, secrets);
  }
  // The blob id of a tracked path (stage 0, not a submodule), or no id
  // when untracked; a submodule's path gives nullopt.
  auto tracked = [&](const std::string& path) -> std::optional<ObjectId> {
    if (!index) {
      const detail::IndexEntry* ie = fast.find(path);
      if (!ie) return ObjectId();
      if (ie->mode == GIT_FILEMODE_COMMIT) return std::nullopt;
      return ObjectId::from_raw(ie->id);
    }
    const git_index_entry* ie = git_index_get_bypath(index.get(), path.c_str(), 0);
    if (!ie) return ObjectId();
    if (ie->mode == GIT_FILEMODE_COMMIT) return std::nullopt;
    return git::to_id(ie->id);
  };
  auto tracked_below = [&](const std::string& dir) {
    if (!index) return fast.has_prefix(dir);
    size_t pos = 0;
    return git_index_find_prefix(&pos, index.get(), dir.c_str()) == 0;
  };
  std::vector<ViewEntry> out;
  Status walked = detail::walk_worktree(root_path, [&](const detail::WalkItem& item) -> bool {
    const std::string rel(item.rel);
    if (item.type == detail::WalkItem::Type::dir) {
      if (tracked_below(rel)) return true;
      int ignored = 0;
      if (git_ignore_path_is_ignored(&ignored, repo, rel.c_str()) == 0 && ignored) return false;
      // An untracked nested repository is not part of this one.
      struct stat gst;
      return fstatat(item.dir_fd, (std::string(item.name) + "/.git").c_str(), &gst, AT_SYMLINK_NOFOLLOW) != 0;
    }
    std::optional<ObjectId> id = tracked(rel);
    if (!id) return false;  // a submodule
    if (id->empty()) {
      int ignored = 0;
      if (git_ignore_path_is_ignored(&ignored, repo, rel.c_str()) == 0 && ignored) return false;
    }
    ViewEntry e;
    e.path = rel;
    e.status = id->empty() ? ChangeStatus::added : ChangeStatus::unchanged;
    e.mode = item.type == detail::WalkItem::Type::link ? kModeLink : kModeFile;
    if (!id->empty()) e.blob_id = e.base_blob_id = *id;
    e.from_worktree = true;
    out.push_back(std::move(e));
    return false;
  });
  if (!walked) return walked.error();
  // Sorted by construction; a linear check keeps View's contract whatever
  // the file system's names do.
  auto by_path = [](const ViewEntry& a, const ViewEntry& b) { return a.path < b.path; };
  if (!std::is_sorted(out.begin(), out.end(), by_path)) std::sort(out.begin(), out.end(), by_path);
  return out;
}

// Unchanged files of a working-tree view equal their base blob; reading them
// from the working tree spares a zlib inflate per file (what ripgrep would
// read, too).
void mark_unchanged_from_worktree(std::vector<ViewEntry>& entries) {
  for (auto& e : entries)
    if (e.status == ChangeStatus::unchanged && !is_link_mode(e.mode)) e.from_worktree = true;
}

// A changed working-tree file under '.secrets/' may carry the id of its
// bytes where libgit2 hashed them to compare: a secret's id is learnt only
// from trees and the index, never from hashing a working-tree secret, so
// that id is dropped (and never shown).
void forget_worktree_secret_ids(std::vector<ViewEntry>& entries) {
  for (auto& e : entries)
    if (e.from_worktree && e.status != ChangeStatus::unchanged && e.status != ChangeStatus::deleted &&
        is_secret_path(e.path))
      e.blob_id.clear();
}

// The blobs (and links, submodules) below `top`, iteratively. A folder at
// the depth cap holds only paths the policy refuses: the count stops there,
// naming the first of them (ws(7), PATH POLICY).
Result<std::size_t> count_blobs(git_repository* repo, const git_tree* top) {
  struct Folder {
    git_oid id;
    std::string path;  // with its '/'
    int depth;
  };
  std::vector<Folder> folders;
  std::size_t n = 0;
  auto count_entries = [&](const git_tree* tree, const std::string& path, int depth) {
    for (std::size_t i = 0, count = git_tree_entrycount(tree); i < count; ++i) {
      const git_tree_entry* e = git_tree_entry_byindex(tree, i);
      if (git_tree_entry_type(e) != GIT_OBJECT_TREE) ++n;
      else folders.push_back({*git_tree_entry_id(e), path + git_tree_entry_name(e) + "/", depth + 1});
    }
  };
  count_entries(top, "", 0);
  while (!folders.empty()) {
    Folder f = std::move(folders.back());
    folders.pop_back();
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, repo, &f.id) < 0) return git::error(Errc::environment, "cannot read a tree");
    git::Tree tree(raw);
    if (f.depth >= kMaxPathDepth) {
      if (git_tree_entrycount(tree.get()) == 0) f.path.pop_back();
      else f.path += git_tree_entry_name(git_tree_entry_byindex(tree.get(), 0));
      return depth_cap_error(std::move(f.path));
    }
    count_entries(tree.get(), f.path, f.depth);
  }
  return n;
}

// A view of one commit over another from one walk of the two trees side by
// side: the folders the change does not touch are taken whole from the base
// without comparing them, which libgit2's tree-to-tree diff plus a walk of
// the whole base did twice.
Result<std::vector<ViewEntry>> committed_view_entries(git_repository* repo, const std::string& base_commit,
                                                      const std::string& pending_commit, bool changes_only) {
  auto base_tree = git::commit_tree(repo, base_commit);
  if (!base_tree) return base_tree.error();
  auto pending_tree = git::commit_tree(repo, pending_commit);
  if (!pending_tree) return pending_tree.error();
  std::vector<ViewEntry> out;
  // Sized once for the whole view: growing it by doubling would move every
  // entry several times into fresh memory. The count reads the trees the
  // walk then finds in the object cache.
  if (!changes_only && pending_tree->get()) {
    auto blobs = count_blobs(repo, pending_tree->get());
    if (!blobs) return blobs.error();
    out.reserve(*blobs + *blobs / 8 + 16);  // and room for some deletes
  }
  // Changes only: folders the two trees share are not even entered; the
  // caller adds the base's unchanged .ws/ files.
  auto st = git::walk_tree_pair(
      repo, base_tree->get(), pending_tree->get(), /*unchanged=*/!changes_only, [&](const git::TreePair& p) {
        ViewEntry e;
        e.path = std::string(p.path);
        if (!p.changed) {
          e.mode = p.new_mode;
          e.blob_id = git::to_id(*p.new_id);
          e.base_blob_id = e.blob_id;
        } else if (!p.new_id) {
          e.status = ChangeStatus::deleted;
          e.mode = p.old_mode;
          e.blob_id = git::to_id(*p.old_id);
          e.base_blob_id = e.blob_id;
        } else {
          e.status = p.old_id ? ChangeStatus::modified : ChangeStatus::added;
          e.mode = p.new_mode;
          e.blob_id = git::to_id(*p.new_id);
          if (p.old_id) e.base_blob_id = git::to_id(*p.old_id);
        }
        out.push_back(std::move(e));
      });
  if (!st) return st.error();
  return out;
}

}  // namespace

Result<std::string> parent_of(const Repository& repo, const std::string& commit_hex) {
  git_oid oid;
  if (!git::from_hex(commit_hex, oid)) return make_error(Errc::not_found, "not a commit id: '" + commit_hex + "'");
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo.raw(), &oid) < 0) return git::error(Errc::not_found, "cannot read commit " + commit_hex);
  git::Commit c(raw);
  if (git_commit_parentcount(c.get()) == 0) return std::string();
  return git::to_hex(*git_commit_parent_id(c.get(), 0));
}

Result<std::string> view_base_commit(const Repository& repo, const ViewSpec& spec) {
  if (spec.source == ViewSource::proposal) {
    auto c = repo.resolve_commit(spec.proposal);
    if (!c) return make_error(Errc::not_found, "unknown proposal '" + spec.proposal + "'", spec.proposal);
    return parent_of(repo, *c);
  }
  return repo.resolve_commit(spec.base.empty() ? "HEAD" : spec.base);
}

Result<View> open_view(const Repository& repo, std::shared_ptr<const WorkspaceRoot> root,
                       const ViewSpec& spec, std::uint64_t size_cap) {
  return detail::open_view_with(repo, std::move(root), spec, size_cap, /*fast_status=*/true);
}

namespace {

// What every way of opening a view starts from: the commits it names, the
// secrets' blob ids its trees give, and where its bytes come from.
struct ViewInputs {
  const Repository& repo;
  git_repository* r;
  std::shared_ptr<const WorkspaceRoot> root;
  const ViewSpec& spec;
  std::uint64_t size_cap;
  std::string base_commit;
  std::string pending_commit;  // for rev and proposal views
  // The secrets' blob ids known without reading one (secrets.h): the base
  // tree's and the pending tree's here, the index's where it is read; the
  // View adds those of its own entries.
  SecretBlobs secrets;
};

Status resolve_commits(ViewInputs& in) {
  auto base = view_base_commit(in.repo, in.spec);
  if (!base) return base.error();
  in.base_commit = std::move(base).value();
  if (in.spec.source == ViewSource::proposal || in.spec.source == ViewSource::rev) {
    auto c = in.repo.resolve_commit(in.spec.source == ViewSource::proposal ? in.spec.proposal : in.spec.rev);
    if (!c) return c.error();
    in.pending_commit = *c;
  }
  if (in.spec.source == ViewSource::worktree && (in.repo.is_bare() || !in.root))
    return make_error(Errc::environment, "this repository has no working tree; use --rev, --staged or --proposal");
  for (const std::string* commit : {&in.base_commit, &in.pending_commit})
    if (Status st = detail::add_commit_secrets(in.r, *commit, in.secrets); !st) return st.error();
  return Ok{};
}

// A working-tree view without statuses (ViewSpec::statuses).
Result<View> files_view(ViewInputs& in) {
  auto files = list_worktree_files(in.repo, in.root->path(), in.secrets);
  if (!files) return files.error();
  if (Status st = detail::measure_secrets(in.r, in.secrets); !st) return st.error();
  auto content = content_of(in.r, in.root, in.size_cap);
  if (!content) return content.error();
  return View(std::move(files).value(), std::move(content).value(), in.base_commit, std::move(in.secrets));
}

// A working-tree view from worktree_status(); none where that does not
// apply (worktree_status.h), for libgit2 to compute.
Result<std::optional<View>> status_view(ViewInputs& in) {
  auto content = content_of(in.r, in.root, in.size_cap);
  if (!content) return content.error();
  auto status = detail::worktree_status(in.repo, in.root->path(), in.base_commit, **content, in.spec.changes_only,
                                        detail::kPrestatMin, in.spec.watch.get());
  if (!status) return status.error();
  if (!status->applicable) return std::optional<View>();
  (*content)->use_walk_links(status->hard_links);
  std::vector<ViewEntry> entries = std::move(status->entries);
  mark_unchanged_from_worktree(entries);
  forget_worktree_secret_ids(entries);
  in.secrets.insert_all(status->index_secrets);
  if (Status st = detail::measure_secrets(in.r, in.secrets); !st) return st.error();
  detect_renames(entries, &in.secrets);
  auto snapshot = std::make_shared<detail::SnapshotContentSource>(std::move(content).value(), std::move(status->kept));
  return std::optional<View>(View(std::move(entries), std::move(snapshot), in.base_commit, std::move(in.secrets)));
}

// A rev or proposal view from one walk of the two trees (committed_view_entries).
Result<View> committed_view(ViewInputs& in) {
  auto entries = committed_view_entries(in.r, in.base_commit, in.pending_commit, in.spec.changes_only);
  if (!entries) return entries.error();
  if (in.spec.changes_only) {
    // The configuration and kinds the view must still hold: the base's
    // .ws/ files the change left alone.
    auto ws_files = in.repo.commit_entries(in.base_commit, ".ws/");
    if (!ws_files) return ws_files.error();
    std::unordered_set<std::string_view> changed;
    for (const auto& e : *entries) changed.insert(e.path);
    std::vector<ViewEntry> kept;
    for (auto& e : *ws_files)
      if (!changed.count(e.path)) kept.push_back(std::move(e));
    for (auto& e : kept) entries->push_back(std::move(e));
    std::sort(entries->begin(), entries->end(), [](const ViewEntry& a, const ViewEntry& b) { return a.path < b.path; });
  }
  auto content = content_of(in.r, in.root, in.size_cap);
  if (!content) return content.error();
  detect_renames(*entries, &in.secrets);
  return View(std::move(entries).value(), std::move(content).value(), in.base_commit, std::move(in.secrets));
}

// The base's entries the libgit2 way needs: all of them, or for a
// changes-only view its .ws/ files (and, over a working tree, every
// .gitattributes file, so its base is walked whole here -- the rare way,
// when the fast status does not apply -- and the rest dropped).
Result<std::vector<ViewEntry>> base_entries_of(const ViewInputs& in) {
  const bool walk_all = !in.spec.changes_only || in.spec.source == ViewSource::worktree;
  auto base_entries = in.repo.commit_entries(in.base_commit, walk_all ? "" : ".ws/");
  if (!base_entries) return base_entries.error();
  std::vector<ViewEntry> entries = std::move(base_entries).value();
  if (in.spec.changes_only && walk_all)
    std::erase_if(entries, [](const ViewEntry& e) {
      return std::string_view(e.path).substr(0, 4) != ".ws/" && !git::is_gitattributes_path(e.path);
    });
  return entries;
}

// libgit2's diff of the base tree against the view's source.
Result<git::Diff> libgit2_diff(const ViewInputs& in, git_tree* base_tree) {
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  git_diff* draw = nullptr;
  int rc = 0;
  switch (in.spec.source) {
    case ViewSource::worktree:
      if (Status st = detail::refuse_mount_points(in.root->path(), in.r, in.repo.index_file()); !st) return st.error();
      opts.flags |= GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS;
      rc = git_diff_tree_to_workdir_with_index(&draw, in.r, base_tree, &opts);
      break;
    case ViewSource::staged:
      rc = git_diff_tree_to_index(&draw, in.r, base_tree, nullptr, &opts);
      break;
    case ViewSource::rev:
    case ViewSource::proposal: {
      auto t = git::commit_tree(in.r, in.pending_commit);
      if (!t) return t.error();
      if (Status deep = git::check_changed_depth(in.r, base_tree, t->get()); !deep) return deep.error();
      rc = git_diff_tree_to_tree(&draw, in.r, base_tree, t->get(), &opts);
      break;
    }
  }
  if (rc < 0) {
    Error failed = git::error(Errc::environment, "cannot compute the pending changes");
    const bool reads_index = in.spec.source == ViewSource::worktree || in.spec.source == ViewSource::staged;
    return reads_index ? detail::index_load_error(in.repo.index_file(), failed) : failed;
  }
  return git::Diff(draw);
}

// Lays the diff's deltas over the base's entries (sorted by path), in place.
class DeltaMerge {
 public:
  DeltaMerge(const ViewInputs& in, std::vector<ViewEntry>& entries, const ContentSource& content)
      : in_(in), entries_(entries), content_(content), worktree_(in.spec.source == ViewSource::worktree) {
    by_path_.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) by_path_.emplace(entries_[i].path, i);
  }

  void apply(const git_diff* diff) {
    for (std::size_t i = 0, n = git_diff_num_deltas(diff); i < n; ++i) {
      const git_diff_delta* d = git_diff_get_delta(diff, i);
      ChangeStatus st = status_of(d->status);
      if (st == ChangeStatus::deleted) deleted(*d);
      else if (st != ChangeStatus::unchanged) changed(*d, st);
    }
    // Merge the few added paths into the sorted base rather than re-sorting it all.
    auto by_path = [](const ViewEntry& a, const ViewEntry& b) { return a.path < b.path; };
    std::sort(added_.begin(), added_.end(), by_path);
    std::size_t mid = entries_.size();
    for (auto& e : added_) entries_.push_back(std::move(e));
    std::inplace_merge(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(mid), entries_.end(), by_path);
  }

 private:
  void deleted(const git_diff_delta& d) {
    auto it = by_path_.find(d.old_file.path);
    if (it != by_path_.end()) {
      entries_[it->second].status = ChangeStatus::deleted;
    } else if (in_.spec.changes_only) {
      ViewEntry gone;
      gone.path = d.old_file.path;
      gone.status = ChangeStatus::deleted;
      gone.mode = d.old_file.mode;
      gone.blob_id = gone.base_blob_id = git::to_id(d.old_file.id);
      added_.push_back(std::move(gone));
    }
  }

  void changed(const git_diff_delta& d, ChangeStatus st) {
    ViewEntry e;
    e.path = d.new_file.path;
    e.status = st;
    e.mode = d.new_file.mode;
    e.size = d.new_file.size;
    e.from_worktree = worktree_;
    if (!e.path.empty() && e.path.back() == '/') {  // an untracked nested repository
      e.path.pop_back();
      e.mode = kModeGitlink;
    }
    bool id_known = (d.new_file.flags & GIT_DIFF_FLAG_VALID_ID) && !git_oid_is_zero(&d.new_file.id);
    if (id_known) e.blob_id = git::to_id(d.new_file.id);
    else if (worktree_ && !is_link_mode(e.mode) && !is_secret_path(e.path)) {
      // libgit2 leaves untracked files unhashed; hash through the confined reader.
      auto bytes = content_.read(e);
      if (bytes) {
        e.blob_id = ObjectId::from_hex(Repository::hash_blob(*bytes));
        e.size = bytes->size();
      }
    }
    auto it = by_path_.find(e.path);
    if (it != by_path_.end()) {
      ViewEntry& base = entries_[it->second];
      e.base_blob_id = base.base_blob_id;
      if (st == ChangeStatus::added) e.status = ChangeStatus::modified;  // e.g. a type change
      base = std::move(e);
    } else {
      // Not walked (a changes-only view): the base side is the diff's own.
      if (in_.spec.changes_only && st == ChangeStatus::modified) e.base_blob_id = git::to_id(d.old_file.id);
      added_.push_back(std::move(e));
    }
  }

  const ViewInputs& in_;
  std::vector<ViewEntry>& entries_;
  const ContentSource& content_;
  const bool worktree_;
  std::unordered_map<std::string_view, std::size_t> by_path_;
  std::vector<ViewEntry> added_;  // entries not in `entries_` yet
};

// Any view the ways above do not take (or with `fast_status` false): the
// base walked whole, then libgit2's diff laid over it.
Result<View> libgit2_view(ViewInputs& in) {
  auto base_entries = base_entries_of(in);
  if (!base_entries) return base_entries.error();
  std::vector<ViewEntry> entries = std::move(base_entries).value();
  auto content = content_of(in.r, in.root, in.size_cap);
  if (!content) return content.error();
  if (in.spec.source == ViewSource::rev && in.pending_commit == in.base_commit)
    // A revision against itself (ws-grep --base) changes nothing, and
    // libgit2 would still compare the two trees directory by directory.
    return View(std::move(entries), std::move(content).value(), in.base_commit, std::move(in.secrets));
  auto base_tree = git::commit_tree(in.r, in.base_commit);
  if (!base_tree) return base_tree.error();
  auto diff = libgit2_diff(in, base_tree->get());
  if (!diff) return diff.error();
  DeltaMerge(in, entries, **content).apply(diff->get());
  if (in.spec.source == ViewSource::worktree) {
    mark_unchanged_from_worktree(entries);
    forget_worktree_secret_ids(entries);
    // The index the diff read (libgit2 keeps it on the repository).
    git_index* index = nullptr;
    if (git_repository_index(&index, in.r) == 0) {
      detail::add_index_secrets(index, in.secrets);
      git_index_free(index);
    }
    if (Status st = detail::measure_secrets(in.r, in.secrets); !st) return st.error();
  }
  detect_renames(entries, &in.secrets);
  return View(std::move(entries), std::move(content).value(), in.base_commit, std::move(in.secrets));
}

}  // namespace

// One strategy per kind of view, tried in order (ws(7), VIEWS).
Result<View> detail::open_view_with(const Repository& repo, std::shared_ptr<const WorkspaceRoot> root,
                                    const ViewSpec& spec, std::uint64_t size_cap, bool fast_status) {
  ViewInputs in{repo, repo.raw(), std::move(root), spec, size_cap, {}, {}, {}};
  if (Status st = resolve_commits(in); !st) return st.error();
  const bool worktree = spec.source == ViewSource::worktree;
  if (worktree && !spec.statuses) return files_view(in);
  if (worktree && fast_status) {
    auto fast = status_view(in);
    if (!fast) return fast.error();
    if (*fast) return std::move(**fast);
  }
  if (!worktree && spec.source != ViewSource::staged && fast_status) return committed_view(in);
  return libgit2_view(in);
}

}  // namespace ws
