// Session keys: a session's proposals are kept per worktree (ws(7) PROPOSALS).
#include <git2.h>

#include "libcheck/workspace.h"
#include "proposal_approval.h"
#include "proposal_internal.h"

namespace ws::proposal {

namespace {

// A linked worktree's name can qualify a session when "<session>@<name>"
// is a valid ref name component: no '/', no control character, no space,
// nothing git refuses in a ref.
bool valid_worktree_name(std::string_view name) {
  if (name.empty() || name.find('/') != std::string_view::npos) return false;
  std::string ref = kCurrentPrefix + "x@" + std::string(name);
  git::ensure_init();  // the check may run before any repository is opened
  int valid = 0;
  return git_reference_name_is_valid(&valid, ref.c_str()) == 0 && valid;
}

// The name of the linked worktree `repo` was opened in; "" for the main
// worktree and a bare repository.
Result<std::string> linked_worktree_name(git_repository* repo) {
  if (!git_repository_is_worktree(repo)) return std::string();
  git_worktree* raw = nullptr;
  if (git_worktree_open_from_repository(&raw, repo) < 0)
    return git::error(Errc::environment, "cannot read the linked worktree's name");
  std::string name = git_worktree_name(raw);
  git_worktree_free(raw);
  return name;
}

}  // namespace

Result<std::string> session_key(git_repository* repo, const std::string& session) {
  auto worktree = linked_worktree_name(repo);
  if (!worktree) return worktree.error();
  if (worktree->empty()) return session;
  if (!valid_worktree_name(*worktree))
    return make_error(Errc::environment, "linked worktree name '" + *worktree +
                                             "' cannot qualify a session: it is not a valid ref name component; "
                                             "add the worktree again under a plain name (git worktree add)");
  return session + "@" + *worktree;
}

std::optional<SessionKey> parse_session_key(std::string_view key) {
  auto at = key.find('@');
  SessionKey k;
  k.session = std::string(key.substr(0, at));
  if (!is_valid_session(k.session)) return std::nullopt;
  if (at == std::string_view::npos) return k;
  k.worktree = std::string(key.substr(at + 1));
  if (!valid_worktree_name(k.worktree)) return std::nullopt;
  return k;
}

Result<bool> session_selected(std::string_view key, std::string_view filter) {
  if (filter.empty()) return true;
  auto want = parse_session_key(filter);
  if (!want)
    return make_error(Errc::usage,
                      "invalid session '" + std::string(filter) +
                          "': give a session name, or NAME@WORKTREE as ws-apply --list shows it",
                      std::string(filter));
  if (filter.find('@') != std::string_view::npos) return key == filter;
  auto have = parse_session_key(key);
  return have && have->session == want->session;
}

}  // namespace ws::proposal
