// What the next run does with an apply record (ws-apply(1) "INTERRUPTED
// APPLY"): an apply that did not happen leaves nothing behind, one that
// moved the branch is reported, refused around, or completed.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "home_directory.h"
#include "apply_journal.h"
#include "index_file.h"
#include "libcheck/proposal.h"
#include "libcheck/workspace_root.h"
#include "proposal_internal.h"

namespace ws {

using namespace proposal;

namespace {

// What is left of a claimed record's apply.
struct Assessment {
  bool happened = false;  // the branch moved (or the new commit was published)
  bool pending = false;   // something is left to complete
  RecordLocks locks;
};

Error damaged(const std::string& git_dir, const std::string& why) {
  return make_error(Errc::invalid,
                    "the apply record '" + apply_dir(git_dir) + "/apply.json' " + why +
                        "; if no ws-apply is running, look at it, then remove it",
                    apply_dir(git_dir) + "/apply.json");
}

// The apply happened when its commit is the applied ref, the branch tip, or
// an ancestor of the tip (the branch moved on since).
bool apply_happened(git_repository* repo, const ApplyRecord& r) {
  if (ref_target(repo, kAppliedPrefix + r.proposal) == r.new_commit) return true;
  std::string tip = ref_target(repo, r.branch);
  if (tip == r.new_commit) return true;
  git_oid t, n;
  if (tip.empty() || !git::from_hex(tip, t) || !git::from_hex(r.new_commit, n)) return false;
  return git_graph_descendant_of(repo, &t, &n) == 1;
}

// The record must describe the commit it names: one commit on the old tip
// whose changes are the record's paths. Anything else is not acted on.
Status check_record(const Repository& repo, const ApplyRecord& r) {
  auto commit = lookup_commit(repo.raw(), r.new_commit);
  if (!commit) return damaged(repo.git_dir(), "names a commit that does not exist");
  unsigned parents = git_commit_parentcount(commit->get());
  std::string parent = parents ? git::to_hex(*git_commit_parent_id(commit->get(), 0)) : "";
  if (parents > 1 || parent != r.old_tip) return damaged(repo.git_dir(), "does not match the commit it names");
  auto paths = applied_paths(repo.raw(), r.old_tip, r.new_commit);
  if (!paths) return paths.error();
  if (*paths != r.paths) return damaged(repo.git_dir(), "does not match the commit it names");
  return Ok{};
}

// Whether the index still has to follow: an applied path whose entry is
// not yet the new one, while the branch is checked out here.
bool index_behind(const Repository& repo, const ApplyRecord& r) {
  if (r.index.empty() || repo.head_branch() != r.branch) return false;
  auto index = detail::IndexFile::read(r.index);
  if (index.state() == detail::IndexFile::State::unsupported) return true;
  for (const auto& p : r.paths) {
    const detail::IndexEntry* e = index.find(p.path);
    bool at_new = p.new_mode == 0 ? e == nullptr : e && e->mode == p.new_mode && git::hex_equals(p.new_id, e->id);
    if (!at_new) return true;
  }
  return false;
}

// A record names this worktree's index (or none), a branch, and exactly the
// lock files its apply may create: no other file is ever removed or
// written on its word.
Status check_names(const Repository& repo, const ApplyRecord& r) {
  int valid = 0;
  if (git_reference_name_is_valid(&valid, r.branch.c_str()) != 0 || !valid ||
      (!r.index.empty() && r.index != worktree_index(repo)) || r.locks != expected_locks(repo, r))
    return damaged(repo.git_dir(), "names files that are not its apply's");
  return Ok{};
}

Result<Assessment> assess(const Repository& repo, const FoundRecord& found) {
  Assessment a;
  const ApplyRecord& r = found.record;
  if (auto st = check_names(repo, r); !st) return st.error();
  a.locks = record_locks(r, found.file.written());
  a.happened = apply_happened(repo.raw(), r);
  if (!a.happened) return a;
  if (auto st = check_record(repo, r); !st) return st.error();
  a.pending = ref_target(repo.raw(), kAppliedPrefix + r.proposal) != r.new_commit || index_behind(repo, r) ||
              !a.locks.own.empty();
  return a;
}

std::vector<std::string> foreign_lock_lines(const ApplyRecord& r, const RecordLocks& locks, const std::string& workdir) {
  std::vector<std::string> out;
  for (const auto& l : locks.foreign)
    out.push_back("lock file " + lock_description(l, workdir) + " was not made by the apply of proposal " +
                  short_id(r.proposal) + "; if no git is running, remove it");
  return out;
}

// Removes a record that has nothing left to do, with the lock files its apply made.
void settle(FoundRecord& found, const RecordLocks& locks) {
  for (const auto& own : locks.own) ::unlink(own.c_str());
  found.file.remove();
}

}  // namespace

Result<std::vector<std::string>> check_interrupted_apply(const Repository& repo, InterruptedApply mode) {
  if (mode == InterruptedApply::ignore) return std::vector<std::string>{};
  auto found = find_record(repo.git_dir());
  if (found && found->state == FoundRecord::claimed) {
    auto a = assess(repo, *found);
    if (!a) found = a.error();
    else {
      auto lines = foreign_lock_lines(found->record, a->locks, repo.workdir());
      if (!a->pending) {
        settle(*found, a->locks);
        return lines;
      }
      if (mode == InterruptedApply::refuse)
        return make_error(Errc::refused, interrupted_line(found->record), found->record.proposal,
                          Rule::interrupted_apply);
      lines.insert(lines.begin(), interrupted_line(found->record));
      return lines;
    }
  }
  if (!found) {
    if (mode == InterruptedApply::refuse) return found.error();
    return std::vector<std::string>{found.error().message};
  }
  return std::vector<std::string>{};  // none, or an apply running now
}

Result<ApplyResult> continue_apply(const OpenOptions& open) {
  auto repo_r = Repository::open(open.dir);
  if (!repo_r) return repo_r.error();
  const Repository& repo = *repo_r;
  if (!repo.is_bare()) {
    auto root = WorkspaceRoot::open(repo.workdir(), detail::home_directory());
    if (!root) return root.error();
  }
  auto found = find_record(repo.git_dir());
  if (!found) return found.error();
  if (found->state == FoundRecord::none)
    return make_error(Errc::usage, "no interrupted apply to continue in this worktree");
  if (found->state == FoundRecord::running)
    return make_error(Errc::refused,
                      "proposal " + short_id(found->record.proposal) + " is being applied by another ws-apply in "
                      "this worktree (pid " + std::to_string(found->record.pid) + "); wait for it to finish",
                      found->record.proposal, Rule::running);
  auto a = assess(repo, *found);
  if (!a) return a.error();
  ApplyResult out;
  out.proposal = found->record.proposal;
  out.commit = found->record.new_commit;
  out.branch = found->record.branch;
  out.base = found->record.old_tip;
  out.completed = true;
  if (!a->happened) {
    std::string why = "the apply of proposal " + short_id(out.proposal) + " did not happen ('" +
                      branch_display(out.branch) + "' is not at " + short_id(out.commit) +
                      "); no interrupted apply to continue";
    settle(*found, a->locks);
    return make_error(Errc::usage, why);
  }
  auto journal = ApplyJournal::resume(repo, std::move(found).value());
  if (!journal) return journal.error();
  auto done = (*journal)->complete();
  if (!done) return done.error();
  out.index_updated = done->index_updated;
  out.index_kept = std::move(done->index_kept);
  return out;
}

}  // namespace ws
