// ws-apply: list, show, reject, and apply proposals.
#include <cstdio>
#include <ctime>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "common/cli.h"
#include "libcheck/proposal.h"
#include "libcheck/repository.h"

namespace {

constexpr const char* kTool = "ws-apply";

struct Options {
  wscli::CommonOptions common;
  bool list = false;
  bool all_sessions = false;
  std::string show;
  bool stat = false;
  std::string reject;
  std::string id;
  std::string branch;
  bool rebase = false;
};

std::string age(std::int64_t when) {
  std::int64_t s = std::time(nullptr) - when;
  if (s < 0) s = 0;
  auto unit = [](std::int64_t n, const char* what) {
    return fmt::format("{} {}{} ago", n, what, n == 1 ? "" : "s");
  };
  if (s < 60) return unit(s, "second");
  if (s < 3600) return unit(s / 60, "minute");
  if (s < 86400) return unit(s / 3600, "hour");
  return unit(s / 86400, "day");
}

nlohmann::json info_json(const ws::ProposalInfo& p) {
  auto or_null = [](const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
  nlohmann::json j{{"type", "proposal"}, {"id", p.id}, {"session", p.session},
                   {"worktree", or_null(p.worktree)}, {"base", or_null(p.base)},
                   {"branch", p.branch}, {"subject", p.subject}, {"author", p.author}, {"time", p.time},
                   {"state", ws::proposal_state_name(p.state)}};
  if (!p.superseded_by.empty()) j["superseded_by"] = p.superseded_by;
  if (!p.applied_as.empty()) j["applied_as"] = p.applied_as;
  if (p.state == ws::ProposalState::stale) {
    j["branch_tip"] = or_null(p.branch_tip);
    j["moved_by"] = p.moved_by;
    j["colliding_paths"] = p.colliding_paths;
  }
  return j;
}

// Every session's proposals, of every worktree: an approver sees what any
// agent staged. Only an explicit --session filters (not $WS_SESSION, which
// names the session an agent stages under).
int do_list(const ws::Repository& repo, const Options& o) {
  auto list = ws::list_proposals(repo, o.all_sessions ? "" : o.common.session);
  if (!list) return wscli::report_error(kTool, list.error());
  for (const auto& p : *list) {
    if (o.common.json) {
      fmt::print("{}\n", info_json(p).dump());
      continue;
    }
    std::string branch = p.branch.rfind("refs/heads/", 0) == 0 ? p.branch.substr(11) : p.branch;
    fmt::print("{}  {:<10}  {}  {}  {}  {}\n", p.id.substr(0, 12), ws::proposal_state_name(p.state), p.session,
               branch, age(p.time), p.subject);
    if (p.state == ws::ProposalState::stale) {
      fmt::print("    stale: '{}' is now at {}{}", branch, p.branch_tip.empty() ? "nothing" : p.branch_tip.substr(0, 12),
                 p.moved_by.empty() ? "" : " ('" + p.moved_by + "')");
      if (p.colliding_paths.empty()) fmt::print("; no path collides (--rebase can apply it)\n");
      else {
        fmt::print("; changed on both sides:");
        for (const auto& c : p.colliding_paths) fmt::print(" {}", c);
        fmt::print("\n");
      }
    } else if (p.state == ws::ProposalState::superseded && !p.superseded_by.empty()) {
      fmt::print("    superseded by {}\n", p.superseded_by.substr(0, 12));
    } else if (p.state == ws::ProposalState::applied) {
      fmt::print("    applied as {}\n", p.applied_as.substr(0, 12));
    }
  }
  return wscli::kExitOk;
}

int do_show(const ws::Repository& repo, const Options& o) {
  auto shown = ws::show_proposal(repo, o.show);
  if (!shown) return wscli::report_error(kTool, shown.error());
  if (o.common.json) {
    nlohmann::json j = info_json(shown->info);
    nlohmann::json files = nlohmann::json::array();
    for (const auto& f : shown->files) {
      nlohmann::json fj{{"path", f.path}, {"status", std::string(1, static_cast<char>(f.status))},
                        {"additions", f.additions}, {"deletions", f.deletions}};
      if (!f.old_path.empty()) fj["old_path"] = f.old_path;
      files.push_back(fj);
    }
    j["files"] = files;
    j["message"] = shown->info.message;
    if (!o.stat) j["patch"] = shown->patch;
    fmt::print("{}\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return wscli::kExitOk;
  }
  const auto& p = shown->info;
  fmt::print("proposal {}\n", p.id);
  fmt::print("Session: {}\nBranch:  {}\nBase:    {}\nAuthor:  {}\nState:   {}\n\n", p.session, p.branch,
             p.base.empty() ? "(none)" : p.base, p.author, ws::proposal_state_name(p.state));
  std::string msg = p.message;
  std::size_t start = 0;
  while (start < msg.size()) {
    auto nl = msg.find('\n', start);
    fmt::print("    {}\n", msg.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  fmt::print("\n{}", shown->stat);
  if (!o.stat) fmt::print("\n{}", shown->patch);
  return wscli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"List, show, reject and apply proposals. Applying one makes exactly one commit on its branch.",
               kTool};
  app.get_formatter()->column_width(30);
  wscli::add_common_options(app, o.common, /*with_z=*/false);
  app.add_flag("--list", o.list, "list every session's proposals with their state (--session NAME: that session's)");
  app.add_flag("--all-sessions", o.all_sessions, "with --list: every session's proposals (the default; kept for scripts)");
  app.add_option("--show", o.show, "show a proposal: header, message, diffstat and the exact diff")->type_name("ID");
  app.add_flag("--stat", o.stat, "with --show: the diffstat only");
  app.add_option("--reject", o.reject, "reject a proposal; it can never be applied")->type_name("ID");
  app.add_option("--branch", o.branch, "apply onto BRANCH instead of the one the proposal names")->type_name("BRANCH");
  app.add_flag("--rebase", o.rebase, "apply a stale proposal onto the new tip if none of its paths changed there");
  app.add_option("id", o.id, "the proposal to apply")->type_name("ID");
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;

  int modes = int(o.list) + int(!o.show.empty()) + int(!o.reject.empty()) + int(!o.id.empty());
  if (modes != 1) {
    fmt::print(stderr, "{}: say what to do: --list, --show ID, --reject ID, or ID to apply\n", kTool);
    return wscli::kExitUsage;
  }
  auto repo = ws::Repository::open(o.common.dir);
  if (!repo) return wscli::report_error(kTool, repo.error());
  // A --list filter may name a linked worktree's session (NAME@WORKTREE),
  // which no tool stages under by name: list_proposals checks it.
  if (o.list) return do_list(*repo, o);
  auto session = wscli::resolve_session(o.common);
  if (!session) return wscli::report_error(kTool, session.error());

  if (!o.show.empty()) return do_show(*repo, o);
  if (!o.reject.empty()) {
    auto st = ws::reject_proposal(*repo, o.reject);
    if (!st) return wscli::report_error(kTool, st.error());
    fmt::print("rejected {}\n", o.reject);
    return wscli::kExitOk;
  }
  ws::OpenOptions open;
  open.dir = o.common.dir;
  open.session = *session;
  ws::ApplyOptions ao;
  ao.branch = o.branch;
  ao.rebase = o.rebase;
  auto applied = ws::apply_proposal(open, o.id, ao, ws::rebuild_with_compile);
  if (!applied) return wscli::report_error(kTool, applied.error());
  if (o.common.json) {
    fmt::print("{}\n", nlohmann::json{{"type", "applied"}, {"commit", applied->commit}, {"branch", applied->branch},
                                      {"base", applied->base}, {"rebased", applied->rebased},
                                      {"index_updated", applied->index_updated},
                                      {"index_error", applied->index_error}}.dump());
  } else {
    std::string branch = applied->branch.rfind("refs/heads/", 0) == 0 ? applied->branch.substr(11) : applied->branch;
    fmt::print("applied {} to '{}' as {}{}\n", o.id, branch, applied->commit, applied->rebased ? " (rebased)" : "");
  }
  if (!applied->index_error.empty())
    fmt::print(stderr,
               "{}: warning: the index did not follow the branch ({}); it still holds the old bytes of the "
               "applied paths: once no git is running, run 'git reset -q -- PATH...' on them (listed by "
               "'ws-apply --show {} --stat')\n",
               kTool, applied->index_error, o.id);
  // Everything is written (branch, refs, index); only teardown is left.
  wscli::exit_without_teardown(wscli::kExitOk);
}
