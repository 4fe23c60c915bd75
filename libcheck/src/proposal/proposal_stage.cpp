// ws-commit: the view's changes, exact bytes, as one proposal commit.
#include "libcheck/proposal.h"

#include <sys/stat.h>

#include "libcheck/repository.h"
#include "libcheck/workspace_root.h"
#include "proposal_approval.h"
#include "proposal_canonical.h"
#include "proposal_internal.h"

namespace ws {

using namespace proposal;

namespace {

// The tree of a --rev view is a commit anyone may have written by hand;
// staging it must not turn what ws-apply would refuse (a zero-padded mode,
// unsorted or duplicate names) into a proposal that passes, so it is
// checked as ws-apply checks a proposal's (proposal_canonical.h).
Status check_committed_tree(const Workspace& ws) {
  if (ws.view_spec.source != ViewSource::rev) return Ok{};
  auto rev = ws.repo->resolve_commit(ws.view_spec.rev);
  if (!rev) return rev.error();
  auto base_tree = commit_tree(ws.repo->raw(), ws.view.base_commit());
  if (!base_tree) return base_tree.error();
  auto checked = check_proposal(ws.repo->raw(), base_tree->get(), *rev);
  if (!checked) return checked.error();
  return Ok{};
}

// Step 1: the request itself. The session's key (kept per worktree: a
// linked worktree's session is not the main one's), or why nothing is staged.
Result<std::string> check_request(const Workspace& ws, const std::vector<const ViewEntry*>& changes,
                                  const std::string& message) {
  if (changes.empty()) return make_error(Errc::refused, "nothing to propose: the view has no pending changes");
  if (message.find_first_not_of(" \t\n") == std::string::npos)
    return make_error(Errc::usage, "empty proposal message: say what the change does with -m");
  // git would keep the message up to the NUL only: refused rather than cut.
  if (message.find('\0') != std::string::npos)
    return make_error(Errc::usage, "invalid proposal message: it holds a NUL byte; give it as text");
  return session_key(ws.repo->raw(), ws.session);
}

// Step 2: refuse the whole set before writing a single object.
Status refuse_changes(const Workspace& ws, const std::vector<const ViewEntry*>& changes) {
  if (auto st = check_committed_tree(ws); !st) return st.error();
  for (const ViewEntry* e : changes) {
    std::uint32_t mode = e->status == ChangeStatus::deleted ? kModeFile : e->mode;
    if (auto why = refuse_entry(e->path, mode, ws.config.protected_paths)) return make_error(Errc::refused, *why, e->path);
    if (e->status != ChangeStatus::deleted && ws.view.holds_secret_bytes(*e))
      return make_error(Errc::refused, secret_bytes_refusal(e->path), e->path, Rule::secret);
    if (!e->old_path.empty())
      if (auto why = refuse_entry(e->old_path, kModeFile, ws.config.protected_paths))
        return make_error(Errc::refused, *why, e->old_path);
  }
  return Ok{};
}

// Step 3: every changed file read once; these exact bytes are what the
// proposal holds. A file whose bytes changed since the view was read, or a
// root that moved, refuses the set.
Result<std::vector<std::string>> read_changed_bytes(const Workspace& ws, const std::vector<const ViewEntry*>& changes) {
  std::vector<std::string> contents(changes.size());
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const ViewEntry& e = *changes[i];
    if (e.status == ChangeStatus::deleted) continue;
    auto bytes = ws.view.read(e);
    if (!bytes) return make_error(Errc::refused, bytes.error().message, e.path, bytes.error().rule);
    if (!e.blob_id.empty() && Repository::hash_blob(*bytes) != e.blob_id.hex())
      return make_error(Errc::refused,
                        "'" + e.path + "' changed while it was being checked; run ws-commit again", e.path);
    contents[i] = std::move(bytes).value();
  }
  if (ws.root) {
    if (auto st = ws.root->verify_unchanged(); !st) return st.error();
  }
  return contents;
}

// Step 4: the blobs written and the tree edits that place them: an add or
// a replacement per file, a removal per deleted file or renamed-from path.
Result<std::vector<TreeEdit>> write_blobs(git_repository* repo, const std::vector<const ViewEntry*>& changes,
                                          const std::vector<std::string>& contents) {
  std::vector<TreeEdit> edits;
  edits.reserve(changes.size() * 2);
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const ViewEntry& e = *changes[i];
    if (e.status != ChangeStatus::deleted) {
      TreeEdit t;
      git::clear_error();
      if (git_blob_create_from_buffer(&t.id, repo, contents[i].data(), contents[i].size()) < 0)
        return git::error(Errc::environment, "cannot write blob for '" + e.path + "'");
      t.path = e.path;
      // 100644 or 100755, as refuse_entry let through: written as it is,
      // so the mode the stat output prints is the mode the tree holds.
      t.mode = e.mode;
      edits.push_back(std::move(t));
    }
    const std::string& gone = e.status == ChangeStatus::deleted ? e.path : e.old_path;
    if (!gone.empty()) {
      TreeEdit t;
      t.path = gone;
      t.remove = true;
      edits.push_back(std::move(t));
    }
  }
  return edits;
}

// Step 5: the proposal's tree, the base's with the edits applied. Only the
// folders holding a change are written; git_tree_create_updated copied
// each into a tree builder, sorted it and checked every entry's object
// exists before writing it.
Result<git::Tree> write_tree(git_repository* repo, git_tree* base, std::vector<TreeEdit> edits) {
  auto tree_id = write_edited_tree(repo, base, std::move(edits));
  if (!tree_id) return tree_id.error();
  git_tree* traw = nullptr;
  if (git_tree_lookup(&traw, repo, &*tree_id) < 0) return git::error(Errc::environment, "cannot read the proposal tree");
  return git::Tree(traw);
}

// Step 6: the proposal commit, its parent the base, the session and branch
// in its trailers; written to the object database, on no ref yet.
Result<git_oid> write_commit(git_repository* repo, const StageResult& out, git_tree* tree, const std::string& message) {
  auto author = identity_signature(repo, Identity::author);
  if (!author) return author.error();
  auto committer = identity_signature(repo, Identity::committer);
  if (!committer) return committer.error();
  std::string full_message = with_trailers(message, out.session, out.branch);
  git::Commit parent;
  std::vector<const git_commit*> parents;
  if (!out.base.empty()) {
    auto p = lookup_commit(repo, out.base);
    if (!p) return p.error();
    parent = std::move(p).value();
    parents.push_back(parent.get());
  }
  git_oid commit_id;
  git::clear_error();
  if (git_commit_create(&commit_id, repo, nullptr, author->get(), committer->get(), nullptr, full_message.c_str(),
                        tree, parents.size(), parents.data()) < 0)
    return git::error(Errc::environment, "cannot write the proposal commit");
  return commit_id;
}

Error session_locked(const std::string& session, const std::string& current_ref) {
  return make_error(Errc::refused, "session '" + session + "' is locked by another process ('" + current_ref +
                                       ".lock'); if no ws-commit is running, remove the lock file and retry");
}

// Step 7: the session's ref moved to the new proposal by compare-and-swap.
// The previous proposal is archived first, so that at every instant it is
// either current or superseded, never lost. A lock left on the session's
// ref (by a killed ws-commit) stops us first, so the current proposal is
// not archived while it stays current. Sets out.superseded.
Status publish(const Workspace& ws, const git_oid& commit_id, const std::string& message, StageResult& out) {
  git_repository* repo = ws.repo->raw();
  std::string current_ref = kCurrentPrefix + out.session;
  {
    std::string dir = ws.repo->common_dir();
    if (!dir.empty() && dir.back() != '/') dir += '/';
    struct stat st;
    if (::lstat((dir + current_ref + ".lock").c_str(), &st) == 0) return session_locked(out.session, current_ref);
  }
  std::string previous = ref_target(repo, current_ref);
  if (!previous.empty() && previous != out.id) {
    git_oid prev_oid;
    git::from_hex(previous, prev_oid);
    git_reference* raw = nullptr;
    std::string archive = kSupersededPrefix + out.session + "/" + previous;
    if (git_reference_create(&raw, repo, archive.c_str(), &prev_oid, 1, "ws-commit: superseded") < 0)
      return git::error(Errc::environment, "cannot record the superseded proposal");
    git_reference_free(raw);
    out.superseded = previous;
  }
  git_reference* raw = nullptr;
  std::string log = "ws-commit: " + message.substr(0, message.find('\n'));
  int rc;
  if (previous.empty()) {
    rc = git_reference_create(&raw, repo, current_ref.c_str(), &commit_id, 0, log.c_str());
  } else {
    git_oid prev_oid;
    git::from_hex(previous, prev_oid);
    rc = git_reference_create_matching(&raw, repo, current_ref.c_str(), &commit_id, 1, &prev_oid, log.c_str());
  }
  if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS)
    return make_error(Errc::refused, "session '" + out.session +
                                         "' staged another proposal at the same time; run ws-commit again");
  if (rc == GIT_ELOCKED) return session_locked(out.session, current_ref);
  if (rc < 0) return git::error(Errc::environment, "cannot update " + current_ref);
  git_reference_free(raw);
  return Ok{};
}

// Step 8: the diffstat, from the bytes already in hand, path by path: a
// diff of the two whole trees would walk every folder the changes touch,
// and its attribute lookups would read the whole index. A changes-only
// view holds every .gitattributes only when it is of the working tree
// (ViewSpec::changes_only); of any other, assume one applies.
Result<std::vector<FileStat>> stats_of(const Workspace& ws, git_tree* base, const std::vector<const ViewEntry*>& changes,
                                       const std::vector<std::string>& contents) {
  git_repository* repo = ws.repo->raw();
  bool attributes = ws.view_spec.changes_only && ws.view_spec.source != ViewSource::worktree
                        ? true
                        : attributes_may_apply(repo, ws.view);
  return change_stats(repo, base, changes, contents, attributes, ws.view.secret_blobs());
}

}  // namespace

Result<StageResult> stage_proposal(const Workspace& ws, const std::string& message) {
  git_repository* repo = ws.repo->raw();
  auto changes = ws.view.changes();
  auto key = check_request(ws, changes, message);
  if (!key) return key.error();
  if (auto st = refuse_changes(ws, changes); !st) return st.error();
  auto contents = read_changed_bytes(ws, changes);
  if (!contents) return contents.error();
  auto edits = write_blobs(repo, changes, *contents);
  if (!edits) return edits.error();

  StageResult out;
  out.session = std::move(key).value();
  out.base = ws.view.base_commit();
  out.branch = ws.repo->head_branch();
  auto base_tree = commit_tree(repo, out.base);
  if (!base_tree) return base_tree.error();
  auto tree = write_tree(repo, base_tree->get(), std::move(edits).value());
  if (!tree) return tree.error();
  auto commit_id = write_commit(repo, out, tree->get(), message);
  if (!commit_id) return commit_id.error();
  out.id = git::to_hex(*commit_id);
  if (auto st = publish(ws, *commit_id, message, out); !st) return st.error();

  auto stats = stats_of(ws, base_tree->get(), changes, *contents);
  if (!stats) return stats.error();
  out.files = std::move(stats).value();
  out.stat = stat_text(out.files);
  return out;
}

}  // namespace ws
