// A proposal's diff as an approver reads it (ws-apply --show, --stat, and
// ws-commit's stat): exact renames paired as git pairs them, except that
// nothing holding a secret is ever paired, opened, counted or measured
// (ws(7), the secret kind). Such a file is shown by its path only.
#include <git2.h>

#include <algorithm>
#include <cstdio>

#include "libcheck/path_policy.h"
#include "proposal_internal.h"
#include "secret_content.h"

namespace ws::proposal {

bool is_secret_change(std::string_view path, std::string_view old_path, std::string_view old_id,
                      std::string_view new_id, const SecretBlobs& secrets) {
  return is_secret_path(path) || (!old_path.empty() && is_secret_path(old_path)) || secrets.contains(old_id) ||
         secrets.contains(new_id);
}

namespace {

ChangeStatus status_of(git_delta_t d) {
  switch (d) {
    case GIT_DELTA_ADDED: return ChangeStatus::added;
    case GIT_DELTA_DELETED: return ChangeStatus::deleted;
    case GIT_DELTA_RENAMED: return ChangeStatus::renamed;
    default: return ChangeStatus::modified;
  }
}

std::string hex_or_empty(const git_diff_file& f) {
  return git_oid_is_zero(&f.id) ? std::string() : git::to_hex(f.id);
}

// A secret's file: its path, status and modes; no count, size or id.
FileStat secret_stat(std::string path, ChangeStatus status, std::uint32_t old_mode, std::uint32_t new_mode) {
  FileStat f;
  f.path = std::move(path);
  f.status = status;
  f.secret = true;
  f.old_mode = old_mode;
  f.new_mode = new_mode;
  return f;
}

// A file git would count: its lines (the patch reads both blobs) and sizes.
FileStat counted_stat(git_diff* diff, std::size_t i) {
  const git_diff_delta* d = git_diff_get_delta(diff, i);
  FileStat f;
  f.status = status_of(d->status);
  f.path = d->status == GIT_DELTA_DELETED ? d->old_file.path : d->new_file.path;
  if (d->status == GIT_DELTA_RENAMED) f.old_path = d->old_file.path;
  git_patch* praw = nullptr;
  if (git_patch_from_diff(&praw, diff, i) == 0 && praw) {
    std::size_t ctx = 0, add = 0, del = 0;
    git_patch_line_stats(&ctx, &add, &del, praw);
    f.additions = add;
    f.deletions = del;
    git_patch_free(praw);
  }
  f.binary = (d->flags & GIT_DIFF_FLAG_BINARY) != 0;
  f.old_mode = d->old_file.mode;
  f.new_mode = d->new_file.mode;
  f.old_size = d->old_file.size;
  f.new_size = d->new_file.size;
  return f;
}

// The items of one delta: itself, or for a rename that holds a secret, a
// delete and an add (pairing them would say where a secret's bytes went).
void add_items(git_diff* diff, std::size_t i, const SecretBlobs& secrets, std::vector<DiffItem>& out) {
  const git_diff_delta* d = git_diff_get_delta(diff, i);
  const char* old_path = d->old_file.path ? d->old_file.path : "";
  const char* new_path = d->new_file.path ? d->new_file.path : "";
  if (!is_secret_change(new_path, old_path, hex_or_empty(d->old_file), hex_or_empty(d->new_file), secrets)) {
    out.push_back({i, counted_stat(diff, i)});
    return;
  }
  switch (d->status) {
    case GIT_DELTA_RENAMED:
      out.push_back({i, secret_stat(old_path, ChangeStatus::deleted, d->old_file.mode, 0)});
      out.push_back({i, secret_stat(new_path, ChangeStatus::added, 0, d->new_file.mode)});
      break;
    case GIT_DELTA_DELETED: out.push_back({i, secret_stat(old_path, ChangeStatus::deleted, d->old_file.mode, 0)}); break;
    case GIT_DELTA_ADDED: out.push_back({i, secret_stat(new_path, ChangeStatus::added, 0, d->new_file.mode)}); break;
    default:
      out.push_back({i, secret_stat(new_path, ChangeStatus::modified, d->old_file.mode, d->new_file.mode)});
      break;
  }
}

// git's header of a file, without the "index" line (it would print a
// secret's blob id), and one line saying why nothing follows.
std::string secret_patch(const FileStat& f) {
  std::string out = "diff --git a/" + f.path + " b/" + f.path + "\n";
  char buf[64];
  if (f.status == ChangeStatus::added) std::snprintf(buf, sizeof buf, "new file mode %06o\n", f.new_mode);
  else if (f.status == ChangeStatus::deleted) std::snprintf(buf, sizeof buf, "deleted file mode %06o\n", f.old_mode);
  else if (f.old_mode != f.new_mode) std::snprintf(buf, sizeof buf, "old mode %06o\nnew mode %06o\n", f.old_mode, f.new_mode);
  else buf[0] = '\0';
  out += buf;
  out += is_secret_path(f.path) ? "# '" + f.path + "': secret content is never shown\n"
                                : "# '" + f.path + "': a secret's bytes are never shown, under any path\n";
  return out;
}

}  // namespace

Result<TreeDiff> diff_trees(git_repository* repo, git_tree* from, git_tree* to, std::uint32_t extra_flags) {
  SecretBlobs secrets;
  for (git_tree* t : {from, to})
    if (Status st = detail::add_tree_secrets(repo, t, secrets); !st) return st.error();
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_DISABLE_PATHSPEC_MATCH | extra_flags;
  if (Status st = check_changed_depth(repo, from, to); !st) return st.error();
  git_diff* raw = nullptr;
  if (git_diff_tree_to_tree(&raw, repo, from, to, &opts) < 0) return git::error(Errc::environment, "cannot compare trees");
  TreeDiff out;
  out.diff.reset(raw);
  // Exact renames compare blob ids only: no blob is read to pair them.
  git_diff_find_options fo;
  git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
  fo.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_EXACT_MATCH_ONLY;
  if (git_diff_find_similar(out.diff.get(), &fo) < 0) return git::error(Errc::environment, "cannot pair renames");
  std::size_t n = git_diff_num_deltas(out.diff.get());
  for (std::size_t i = 0; i < n; ++i) add_items(out.diff.get(), i, secrets, out.items);
  // A split rename puts its delete out of place; the rest is in git's order.
  std::stable_sort(out.items.begin(), out.items.end(),
                   [](const DiffItem& a, const DiffItem& b) { return a.stat.path < b.stat.path; });
  return out;
}

Result<std::string> diff_patch(const TreeDiff& diff) {
  std::string out;
  for (const DiffItem& item : diff.items) {
    if (item.stat.secret) {
      out += secret_patch(item.stat);
      continue;
    }
    git_patch* praw = nullptr;
    if (git_patch_from_diff(&praw, diff.diff.get(), item.delta) < 0)
      return git::error(Errc::environment, "cannot print the diff of '" + item.stat.path + "'");
    if (!praw) continue;
    git_buf buf = GIT_BUF_INIT;
    int rc = git_patch_to_buf(&buf, praw);
    if (rc == 0) out.append(buf.ptr, buf.size);
    git_buf_dispose(&buf);
    git_patch_free(praw);
    if (rc < 0) return git::error(Errc::environment, "cannot print the diff of '" + item.stat.path + "'");
  }
  return out;
}

Status refuse_secret_bytes(git_repository* repo, git_tree* base, const std::vector<TreeChange>& changes,
                           const std::string& id7) {
  SecretBlobs secrets;
  if (Status st = detail::add_tree_secrets(repo, base, secrets); !st) return st;
  for (const TreeChange& c : changes)
    if (c.status != GIT_DELTA_DELETED && is_secret_path(c.path)) secrets.insert(c.new_id);
  for (const TreeChange& c : changes)
    if (c.status != GIT_DELTA_DELETED && !is_secret_path(c.path) && secrets.contains(c.new_id))
      return make_error(Errc::refused, "proposal " + id7 + " refused: " + secret_bytes_refusal(c.path), c.path,
                        Rule::secret);
  return Ok{};
}

}  // namespace ws::proposal
