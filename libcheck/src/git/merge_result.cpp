#include "libcheck/merge_result.h"

#include <algorithm>
#include <cstring>

#include "git_util.h"
#include "libcheck/path_policy.h"
#include "tree_merge.h"
#include "tree_pair_walk.h"

namespace ws {

namespace {

Result<git_oid> oid_of(const std::string& hex) {
  git_oid oid;
  if (!git::from_hex(hex, oid)) return make_error(Errc::not_found, "not a commit id: '" + hex + "'", hex);
  return oid;
}

// The merge base of the two, nullopt when they share no history.
Result<std::optional<git_oid>> merge_base_of(git_repository* repo, const git_oid& a, const git_oid& b) {
  git_oid base;
  int rc = git_merge_base(&base, repo, &a, &b);
  if (rc == GIT_ENOTFOUND) return std::optional<git_oid>();
  if (rc < 0) return git::error(Errc::environment, "cannot find the merge base");
  return std::optional<git_oid>(base);
}

// One conflicted path as the merge left it: `rev`'s side when it has one.
struct Conflict {
  std::string path;
  std::optional<git_index_entry> theirs;
  std::string their_path;  // storage for theirs->path
  std::vector<std::string> side_paths;
};

Result<std::vector<Conflict>> conflicts_of(git_index* index) {
  std::vector<Conflict> out;
  if (!git_index_has_conflicts(index)) return out;
  git_index_conflict_iterator* raw = nullptr;
  if (git_index_conflict_iterator_new(&raw, index) < 0)
    return git::error(Errc::environment, "cannot read the merge's conflicts");
  std::unique_ptr<git_index_conflict_iterator, void (*)(git_index_conflict_iterator*)> it(
      raw, git_index_conflict_iterator_free);
  const git_index_entry *ancestor = nullptr, *ours = nullptr, *theirs = nullptr;
  int rc;
  while ((rc = git_index_conflict_next(&ancestor, &ours, &theirs, it.get())) == 0) {
    Conflict c;
    for (const git_index_entry* side : {ancestor, ours, theirs})
      if (side) c.side_paths.emplace_back(side->path);
    c.path = theirs ? theirs->path : ours ? ours->path : ancestor->path;
    if (theirs) {
      c.their_path = theirs->path;
      c.theirs = *theirs;
    }
    out.push_back(std::move(c));
  }
  if (rc != GIT_ITEROVER) return git::error(Errc::environment, "cannot read the merge's conflicts");
  return out;
}

// Leaves each conflicted path at `rev`'s side (absent where `rev` deleted
// it), so that the merge has a tree and the rest of the change is checked.
Status resolve_to_rev_side(git_index* index, std::vector<Conflict>& conflicts) {
  for (auto& c : conflicts) {
    for (const auto& p : c.side_paths) git_index_conflict_remove(index, p.c_str());
    if (!c.theirs) continue;
    git_index_entry entry = *c.theirs;
    entry.path = c.their_path.c_str();
    GIT_INDEX_ENTRY_STAGE_SET(&entry, 0);
    if (git_index_add(index, &entry) < 0)
      return git::error(Errc::environment, "cannot take '" + c.their_path + "' from the change");
  }
  return Ok{};
}

// The merge commit of `tree_id`, with parents `base` and `rev`.
Result<std::string> write_merge_commit(git_repository* repo, const git_oid& tree_id, git_commit* base, git_commit* rev) {
  git_tree* raw_tree = nullptr;
  if (git_tree_lookup(&raw_tree, repo, &tree_id) < 0) return git::error(Errc::environment, "cannot read the merged tree");
  git::Tree tree(raw_tree);
  // The request's own signatures: the same two commits always give the same id.
  const git_commit* parents[] = {base, rev};
  const std::string message = "Merge " + git::to_hex(*git_commit_id(rev)) + " into " +
                              git::to_hex(*git_commit_id(base)) + "\n";
  git_oid commit_id;
  if (git_commit_create(&commit_id, repo, nullptr, git_commit_author(rev), git_commit_committer(rev), nullptr,
                        message.c_str(), tree.get(), 2, parents) < 0)
    return git::error(Errc::environment, "cannot write the merge commit");
  return git::to_hex(commit_id);
}

Result<std::string> write_merge_commit(git_repository* repo, git_index* index, git_commit* base, git_commit* rev) {
  git_oid tree_id;
  if (git_index_write_tree_to(&tree_id, index, repo) < 0)
    return git::error(Errc::environment, "cannot write the merged tree");
  return write_merge_commit(repo, tree_id, base, rev);
}

// The tree of `commit`, or of the merge base (null when there is none).
Result<git::Tree> tree_of(git_repository* repo, const git_oid* commit_id) {
  if (!commit_id) return git::Tree();
  git_commit* raw_commit = nullptr;
  if (git_commit_lookup(&raw_commit, repo, commit_id) < 0) return git::error(Errc::environment, "cannot read a commit");
  git::Commit commit(raw_commit);
  git_tree* raw = nullptr;
  if (git_commit_tree(&raw, commit.get()) < 0) return git::error(Errc::environment, "cannot read a commit's tree");
  return git::Tree(raw);
}

// The merged tree when no file changed on both sides since `merge_base`
// (tree_merge.h); nullopt otherwise, and then libgit2 merges.
std::optional<git_oid> merge_by_side(git_repository* repo, const git_oid& merge_base, const git_oid& base,
                                     const git_oid& rev) {
  auto m = tree_of(repo, &merge_base), a = tree_of(repo, &base), b = tree_of(repo, &rev);
  if (!m || !a || !b) return std::nullopt;
  return git::merge_trees_by_side(repo, m->get(), a->get(), b->get());
}

// The first path `side` adds or changes since the merge base that the path
// policy refuses (ws(7), PATH POLICY), nullopt when none. A secret's name is
// not refused: only its content is never read, and the build says so.
Result<std::optional<PathRejection>> refused_change(git_repository* repo, const git_tree* merge_base,
                                                    const git_oid& side) {
  auto to = tree_of(repo, &side);
  if (!to) return to.error();
  PathPolicy policy = read_policy();
  policy.allow_secret_names = true;
  std::optional<PathRejection> first;
  auto st = git::walk_tree_pair(repo, merge_base, to->get(), /*unchanged=*/false, [&](const git::TreePair& p) {
    if (!first && p.new_mode != 0) first = check_path(p.path, policy);
  });
  if (!st) return st.error();
  return first;
}

// Why libgit2 would not merge, said as the path policy says it: its merge
// refuses a path git would not check out (a '.git' component, as git does),
// and its message names neither the rule nor what to do. The change's path
// comes first, then the target's; libgit2's own error when neither holds one.
Error merge_failure(git_repository* repo, const std::optional<git_oid>& merge_base, const git_oid& rev,
                    const git_oid& base, const std::string& what) {
  Error failed = git::error(Errc::environment, what);
  auto from = tree_of(repo, merge_base ? &*merge_base : nullptr);
  if (!from) return failed;
  for (const git_oid* side : {&rev, &base}) {
    auto rejected = refused_change(repo, from->get(), *side);
    if (!rejected) return rejected.error();
    if (*rejected)
      return make_error(Errc::refused, what + ": " + (*rejected)->message(), (*rejected)->path,
                        to_rule((*rejected)->rule));
  }
  return failed;
}

}  // namespace

Result<MergeResult> merge_for_check(const Repository& repo, const std::string& base_hex, const std::string& rev_hex) {
  MergeResult result;
  result.base = base_hex;
  result.rev = rev_hex;
  if (base_hex.empty() || rev_hex.empty() || base_hex == rev_hex) return result;
  git_repository* r = repo.raw();
  auto base_id = oid_of(base_hex);
  if (!base_id) return base_id.error();
  auto rev_id = oid_of(rev_hex);
  if (!rev_id) return rev_id.error();
  int descends = git_graph_descendant_of(r, &*rev_id, &*base_id);
  if (descends < 0) return git::error(Errc::environment, "cannot walk the history of '" + rev_hex + "'");
  if (descends == 1) return result;

  auto mb = merge_base_of(r, *base_id, *rev_id);
  if (!mb) return mb.error();
  if (*mb) result.merge_base = git::to_hex(**mb);
  auto base = git::lookup_commit(r, base_hex);
  if (!base) return base.error();
  auto rev = git::lookup_commit(r, rev_hex);
  if (!rev) return rev.error();

  if (*mb)
    if (auto tree = merge_by_side(r, **mb, *base_id, *rev_id)) {
      auto commit = write_merge_commit(r, *tree, base->get(), rev->get());
      if (!commit) return commit.error();
      result.commit = std::move(*commit);
      result.merged = true;
      return result;
    }
  git_merge_options opts = GIT_MERGE_OPTIONS_INIT;
  opts.flags = static_cast<git_merge_flag_t>(opts.flags | GIT_MERGE_FIND_RENAMES);
  git_index* raw_index = nullptr;
  if (git_merge_commits(&raw_index, r, base->get(), rev->get(), &opts) < 0)
    return merge_failure(r, *mb, *rev_id, *base_id, "cannot merge '" + rev_hex + "' into '" + base_hex + "'");
  git::Index index(raw_index);
  auto conflicts = conflicts_of(index.get());
  if (!conflicts) return conflicts.error();
  if (auto st = resolve_to_rev_side(index.get(), *conflicts); !st) return st.error();
  for (const auto& c : *conflicts) result.conflicts.push_back(c.path);
  std::sort(result.conflicts.begin(), result.conflicts.end());
  result.conflicts.erase(std::unique(result.conflicts.begin(), result.conflicts.end()), result.conflicts.end());

  auto commit = write_merge_commit(r, index.get(), base->get(), rev->get());
  if (!commit) return commit.error();
  result.commit = std::move(*commit);
  result.merged = true;
  return result;
}

namespace {

// The entry at `path` in `commit`'s tree: its id and mode, nullopt when absent.
std::optional<std::pair<git_oid, git_filemode_t>> entry_in(git_commit* commit, const std::string& path) {
  git_tree* raw = nullptr;
  if (git_commit_tree(&raw, commit) < 0) return std::nullopt;
  git::Tree tree(raw);
  git_tree_entry* entry = nullptr;
  if (git_tree_entry_bypath(&entry, tree.get(), path.c_str()) < 0) return std::nullopt;
  std::pair<git_oid, git_filemode_t> out{*git_tree_entry_id(entry), git_tree_entry_filemode(entry)};
  git_tree_entry_free(entry);
  return out;
}

bool same_entry(const std::optional<std::pair<git_oid, git_filemode_t>>& a,
                const std::optional<std::pair<git_oid, git_filemode_t>>& b) {
  if (!a || !b) return !a && !b;
  return git_oid_equal(&a->first, &b->first) && a->second == b->second;
}

// Whether `commit` changed `path`: its entry differs from every parent's.
bool changed_path(git_commit* commit, const std::string& path) {
  auto mine = entry_in(commit, path);
  unsigned parents = git_commit_parentcount(commit);
  if (parents == 0) return mine.has_value();
  for (unsigned i = 0; i < parents; ++i) {
    git_commit* raw = nullptr;
    if (git_commit_parent(&raw, commit, i) < 0) return false;
    git::Commit parent(raw);
    if (same_entry(mine, entry_in(parent.get(), path))) return false;
  }
  return true;
}

}  // namespace

Result<std::optional<CommitRef>> last_change_of(const Repository& repo, const std::string& tip_hex,
                                                const std::string& since_hex, const std::string& path) {
  git_repository* r = repo.raw();
  auto tip = oid_of(tip_hex);
  if (!tip) return tip.error();
  git_revwalk* raw = nullptr;
  if (git_revwalk_new(&raw, r) < 0) return git::error(Errc::environment, "cannot walk the history");
  git::RevWalk walk(raw);
  git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
  if (git_revwalk_push(walk.get(), &*tip) < 0) return git::error(Errc::environment, "cannot walk from '" + tip_hex + "'");
  if (!since_hex.empty()) {
    auto since = oid_of(since_hex);
    if (!since) return since.error();
    if (git_revwalk_hide(walk.get(), &*since) < 0) return git::error(Errc::environment, "cannot walk the history");
  }
  git_oid id;
  while (git_revwalk_next(&id, walk.get()) == 0) {
    git_commit* raw_commit = nullptr;
    if (git_commit_lookup(&raw_commit, r, &id) < 0) return git::error(Errc::environment, "cannot read a commit");
    git::Commit commit(raw_commit);
    if (!changed_path(commit.get(), path)) continue;
    const char* summary = git_commit_summary(commit.get());
    return std::optional<CommitRef>(CommitRef{git::to_hex(id), summary ? summary : ""});
  }
  return std::optional<CommitRef>();
}

}  // namespace ws
