// One apply's journal: the record written before the branch moves, the
// index locked and checked for staged entries, and the completing step
// that ws-apply and 'ws-apply --continue' share (ws-apply(1) "INTERRUPTED
// APPLY").
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "apply_journal.h"
#include "proposal_internal.h"

namespace ws::proposal {

namespace {

Error refused(std::string message, std::string subject, Rule rule) {
  return make_error(Errc::refused, std::move(message), std::move(subject), rule);
}

std::string with_slash(std::string dir) {
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir;
}

// The branch a HEAD file names ("ref: refs/heads/main"), or "".
std::string head_file_branch(const std::string& head_path) {
  std::ifstream f(head_path);
  std::string line;
  if (!std::getline(f, line) || line.rfind("ref: ", 0) != 0) return "";
  line = line.substr(5);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// Temporary files of processes that are gone, left in <git dir>/ws by a
// kill before they had a name elsewhere ("apply.json.<pid>.tmp",
// "index.lock.<pid>.tmp").
void remove_dead_temporaries(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    bool ours = name.rfind("apply.json.", 0) == 0 || name.rfind("index.lock.", 0) == 0;
    if (!ours || name.size() < 5 || name.compare(name.size() - 4, 4, ".tmp") != 0) continue;
    auto dot = name.rfind('.', name.size() - 5);
    long pid = std::atol(name.c_str() + dot + 1);
    if (pid > 0 && pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

std::string quoted_paths(const std::vector<std::string>& paths) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(paths.size(), 10);
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", '" : "'") + paths[i] + "'";
  if (paths.size() > shown) out += " and " + std::to_string(paths.size() - shown) + " more";
  return out;
}

ApplyRecord new_record(const Repository& repo, const ApplyJournal::Start& s, std::vector<AppliedPath> paths,
                       bool index_here) {
  ApplyRecord r;
  r.pid = ::getpid();
  r.proposal = s.proposal;
  r.branch = s.branch;
  r.old_tip = s.old_tip;
  r.new_commit = s.new_commit;
  r.paths = std::move(paths);
  if (index_here) r.index = worktree_index(repo);
  r.locks = expected_locks(repo, r);
  return r;
}

// Writes the record; a record already there is settled first (one that
// did not happen is removed) or refused.
Result<RecordFile> write_record(const Repository& repo, const ApplyRecord& record) {
  auto file = RecordFile::create(repo.git_dir(), record);
  if (file || file.error().rule != Rule::record_exists) return file;
  auto settled = check_interrupted_apply(repo, InterruptedApply::refuse);
  if (!settled) return settled.error();
  file = RecordFile::create(repo.git_dir(), record);
  if (file || file.error().rule != Rule::record_exists) return file;
  auto found = find_record(repo.git_dir());
  if (!found) return found.error();
  return refused("proposal " + short_id(found->record.proposal) + " is being applied by another ws-apply in this "
                 "worktree (pid " + std::to_string(found->record.pid) + "); wait for it to finish",
                 found->record.proposal, Rule::running);
}

}  // namespace

std::string worktree_index(const Repository& repo) { return with_slash(repo.git_dir()) + "index"; }

std::vector<std::string> expected_locks(const Repository& repo, const ApplyRecord& r) {
  const std::string common = with_slash(repo.common_dir());
  std::vector<std::string> locks{common + r.branch + ".lock", common + kAppliedPrefix + r.proposal + ".lock"};
  if (!r.index.empty())
    for (auto& f : index_update_files(r.index, apply_dir(repo.git_dir()), r.pid)) locks.push_back(f);
  return locks;
}

std::string other_checkout(const Repository& repo, const std::string& branch) {
  git_repository* r = repo.raw();
  const std::string common = with_slash(repo.common_dir());
  const std::string mine = with_slash(repo.git_dir());
  git_strarray names{};
  std::string found;
  if (git_worktree_list(&names, r) == 0) {
    for (std::size_t i = 0; i < names.count && found.empty(); ++i) {
      const std::string dir = common + "worktrees/" + names.strings[i] + "/";
      if (dir == mine || head_file_branch(dir + "HEAD") != branch) continue;
      git_worktree* wt = nullptr;
      found = dir;
      if (git_worktree_lookup(&wt, r, names.strings[i]) == 0) {
        found = git_worktree_path(wt);
        git_worktree_free(wt);
      }
    }
    git_strarray_dispose(&names);
  }
  if (!found.empty() || !git_repository_is_worktree(r)) return found;
  // This is a linked worktree: the main one, unless the repository is bare.
  git_repository* main_raw = nullptr;
  if (git_repository_open(&main_raw, common.c_str()) != 0) return "";
  if (!git_repository_is_bare(main_raw) && head_file_branch(common + "HEAD") == branch)
    found = git_repository_workdir(main_raw);
  git_repository_free(main_raw);
  while (found.size() > 1 && found.back() == '/') found.pop_back();
  return found;
}

RecordLocks record_locks(const ApplyRecord& record, const timespec& written) {
  RecordLocks out;
  for (const auto& l : record.locks) {
    struct stat st {};
    if (::lstat(l.c_str(), &st) != 0) continue;
    (made_by_apply(l, record, written) ? out.own : out.foreign).push_back(l);
  }
  return out;
}

Result<std::unique_ptr<ApplyJournal>> ApplyJournal::begin(const Repository& repo, const Start& start) {
  if (std::string wt = other_checkout(repo, start.branch); !wt.empty())
    return refused("branch '" + branch_display(start.branch) + "' is checked out in the worktree '" + wt +
                       "'; run ws-apply there, so that its index follows",
                   start.branch, Rule::checked_out_elsewhere);
  const bool here = !repo.is_bare() && repo.head_branch() == start.branch;
  auto paths = start.changes ? applied_paths(repo.raw(), *start.changes, start.old_tip, start.new_commit)
                             : applied_paths(repo.raw(), start.old_tip, start.new_commit);
  if (!paths) return paths.error();
  std::unique_ptr<ApplyJournal> j(new ApplyJournal);
  j->repo_ = &repo;
  j->record_ = new_record(repo, start, std::move(paths).value(), here);
  const std::string scratch = apply_dir(repo.git_dir());
  remove_dead_temporaries(scratch);
  auto file = write_record(repo, j->record_);
  if (!file) return file.error();
  j->file_ = std::move(file).value();
  if (!here) return j;
  auto index = IndexUpdate::lock(j->record_.index, scratch, index_lock_marker(start.proposal), repo.workdir());
  if (!index) return index.error();  // the destructor removes the record
  j->index_ = std::move(index).value();
  auto staged = j->index_->staged(j->record_.paths);
  if (!staged) return staged.error();
  if (!staged->empty())
    return refused("the index has staged changes at " + quoted_paths(*staged) + " that proposal " +
                       short_id(start.proposal) + " would overwrite; commit, unstage or stash them first",
                   staged->front(), Rule::staged);
  return j;
}

Result<std::unique_ptr<ApplyJournal>> ApplyJournal::resume(const Repository& repo, FoundRecord found) {
  std::unique_ptr<ApplyJournal> j(new ApplyJournal);
  j->repo_ = &repo;
  j->record_ = std::move(found.record);
  j->file_ = std::move(found.file);
  for (const auto& own : record_locks(j->record_, j->file_.written()).own) ::unlink(own.c_str());
  // The index follows only while it is the branch's: after a checkout of
  // another branch it is that branch's to keep.
  if (j->record_.index.empty() || repo.head_branch() != j->record_.branch) return j;
  auto index = IndexUpdate::lock(j->record_.index, apply_dir(repo.git_dir()), index_lock_marker(j->record_.proposal),
                                 repo.workdir());
  if (!index) return index.error();
  j->index_ = std::move(index).value();
  return j;
}

ApplyJournal::~ApplyJournal() {
  if (!file_.is_open()) return;
  index_.reset();  // drops the index lock
  // The branch moved: the apply happened, and its record stays for the next run.
  if (ref_target(repo_->raw(), record_.branch) == record_.new_commit) return;
  file_.remove();
}

Status ApplyJournal::mark_applied() {
  const std::string name = kAppliedPrefix + record_.proposal;
  std::string at = ref_target(repo_->raw(), name);
  if (at == record_.new_commit) return Ok{};
  if (!at.empty())
    return make_error(Errc::environment, "'" + name + "' points at " + short_id(at) + ", not at " +
                                             short_id(record_.new_commit) + "; look at it before you go on",
                      name);
  git_oid id;
  git::from_hex(record_.new_commit, id);
  git_reference* ref = nullptr;
  int rc = git_reference_create(&ref, repo_->raw(), name.c_str(), &id, 0, "ws-apply: applied");
  if (rc == 0) {
    git_reference_free(ref);
    return Ok{};
  }
  if (rc == GIT_ELOCKED)
    return refused("'" + name + "' is locked by another process (" +
                       lock_description(with_slash(repo_->common_dir()) + name + ".lock", repo_->workdir()) +
                       "); if no git or ws-apply is running, remove the lock file and run 'ws-apply --continue'",
                   name, Rule::locked);
  return git::error(Errc::environment, "cannot write '" + name + "'");
}

Result<ApplyJournal::Completed> ApplyJournal::complete() {
  if (auto st = mark_applied(); !st) return st.error();
  Completed out;
  if (index_) {
    auto staged = index_->staged(record_.paths);
    if (!staged) return staged.error();
    std::vector<AppliedPath> todo;
    for (const auto& p : record_.paths)
      if (!std::binary_search(staged->begin(), staged->end(), p.path)) todo.push_back(p);
    if (auto st = index_->write(todo); !st) return st.error();
    index_.reset();
    out.index_updated = true;
    out.index_kept = std::move(staged).value();
  }
  file_.remove();
  return out;
}

}  // namespace ws::proposal
