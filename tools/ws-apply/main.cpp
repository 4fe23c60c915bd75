// ws-apply: list, show, reject, and apply proposals.
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "common/cli.h"
#include "common/tools.h"
#include "common/count_option.h"
#include "common/proposal_review_text.h"
#include "common/proposal_text.h"
#include "libcheck/change_plan.h"
#include "libcheck/interrupted_apply.h"
#include "libcheck/json_output.h"
#include "libcheck/policy_change.h"
#include "libcheck/terminal_text.h"
#include "libcheck/proposal.h"
#include "libcheck/proposal_json.h"
#include "libcheck/proposal_desk.h"
#include "libcheck/repository.h"

namespace {

constexpr const char* kTool = "ws-apply";

struct Options {
  wscli::CommonOptions common;
  bool list = false;
  bool all_sessions = false;
  bool all = false;  // --list: the settled proposals too
  std::string show;
  bool stat = false;
  std::string reject;
  std::string reason;  // -m
  bool prune = false;
  std::optional<std::size_t> older_than;  // days
  bool dry_run = false;
  std::string id;
  std::string branch;
  bool rebase = false;
  bool allow_policy_change = false;
  bool continue_ = false;
};

// The records of --json are schemas/output/ws-apply.json (ws(7), JSON OUTPUT).
nlohmann::ordered_json info_json(const ws::ProposalInfo& p) {
  auto or_null = [](const std::string& s) { return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s); };
  auto j = ws::json_record("proposal");
  j.update({{"id", p.id}, {"session", p.session}, {"worktree", or_null(p.worktree)}, {"base", or_null(p.base)},
            {"branch", p.branch}, {"subject", p.subject}, {"author", p.author}, {"time", p.time},
            {"state", ws::proposal_state_name(p.state)}});
  if (!p.superseded_by.empty()) j["superseded_by"] = p.superseded_by;
  if (!p.applied_as.empty()) j["applied_as"] = p.applied_as;
  if (!p.rejected_by.empty())
    j.update({{"rejected_by", p.rejected_by}, {"rejected_at", p.rejected_at}, {"reason", p.reason}});
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
    bool pending = p.state == ws::ProposalState::current || p.state == ws::ProposalState::stale;
    if (!pending && !o.all) continue;
    if (o.common.json) {
      fmt::print("{}\n", ws::json_text(info_json(p)));
      continue;
    }
    fmt::print("{}", wscli::proposal_list_entry(p));
  }
  return wscli::kExitOk;
}

int do_show(const ws::Repository& repo, const Options& o) {
  auto shown = ws::show_proposal(repo, o.show);
  if (!shown) return wscli::report_error(kTool, shown.error());
  ws::OpenOptions open;
  open.dir = o.common.dir;
  auto review = ws::review_proposal(open, shown->info);
  if (!review) return wscli::report_error(kTool, review.error());
  if (o.common.json) {
    nlohmann::ordered_json j = info_json(shown->info);
    j["files"] = ws::file_list_json(shown->files);
    j["policy_change"] = ws::policy_paths(shown->files);
    j["message"] = shown->info.message;
    if (!o.stat) j["patch"] = shown->patch;
    wscli::add_review_json(j, *review);
    fmt::print("{}\n", ws::json_text(std::move(j)));
    // The plan, as ws-build --json writes it (ws-apply(1), --show).
    for (auto& record : ws::plan_records(review->impact)) fmt::print("{}\n", ws::json_text(std::move(record)));
    return wscli::kExitOk;
  }
  // First, before anything the author wrote: what the approver must not miss.
  if (auto policy = ws::policy_paths(shown->files); !policy.empty())
    fmt::print("{}\n", ws::terminal_safe(ws::policy_change_banner(policy), ws::LineBreaks::keep));
  bool color = wscli::use_color(o.common, stdout);
  fmt::print("{}", wscli::proposal_show_text(*shown, o.stat, color, wscli::review_text(*review, color)));
  return wscli::kExitOk;
}

// Removes the refs of settled proposals (or says which it would).
int do_prune(const ws::Repository& repo, const Options& o) {
  ws::PruneOptions po;
  po.now = std::time(nullptr);
  po.dry_run = o.dry_run;
  if (o.older_than) po.older_than = static_cast<std::int64_t>(*o.older_than) * 86400;
  auto pruned = ws::prune_proposals(repo, po);
  if (!pruned) return wscli::report_error(kTool, pruned.error());
  for (const auto& line : pruned->left) wscli::print_warning(kTool, line);
  for (const auto& p : pruned->pruned) {
    if (o.common.json) fmt::print("{}\n", ws::json_text(wscli::pruned_json(p, o.dry_run)));
    else fmt::print("{}", wscli::pruned_line(p, o.dry_run));
  }
  if (pruned->pruned.empty() && !o.common.json) fmt::print("nothing to prune\n");
  return wscli::kExitOk;
}

// The options that only mean something with another: a usage error naming
// both, or 0.
int check_companions(const Options& o) {
  auto needs = [](const char* option, const char* with) {
    fmt::print(stderr, "{}: {} only goes with {}\n", kTool, option, with);
    return wscli::kExitUsage;
  };
  if (o.all && !o.list) return needs("--all", "--list");
  if (!o.reason.empty() && o.reject.empty()) return needs("-m", "--reject ID");
  if (o.older_than && !o.prune) return needs("--older-than", "--prune");
  if (o.dry_run && !o.prune) return needs("--dry-run", "--prune");
  if (!o.reject.empty() && o.reason.empty()) {
    fmt::print(stderr, "{}: say why with -m REASON: --reject records it\n", kTool);
    return wscli::kExitUsage;
  }
  if (o.older_than && *o.older_than > 36500) {
    fmt::print(stderr, "{}: invalid count '{}' for --older-than: at most 36500 days\n", kTool, *o.older_than);
    return wscli::kExitUsage;
  }
  return 0;
}

void print_applied(const ws::ApplyResult& a, const std::string& id, const Options& o) {
  if (o.common.json) {
    auto j = ws::json_record("applied");
    j.update({{"commit", a.commit}, {"branch", a.branch}, {"base", a.base}, {"rebased", a.rebased},
              {"index_updated", a.index_updated}, {"index_error", a.index_error}, {"completed", a.completed},
              {"index_kept", a.index_kept}});
    fmt::print("{}\n", ws::json_text(std::move(j)));
    return;
  }
  fmt::print("applied {} to '{}' as {}{}\n", id, wscli::shown(ws::branch_display(a.branch)), a.commit,
             a.rebased ? " (rebased)" : a.completed ? " (completed)" : "");
}

// The record names the proposal by its full id, whatever prefix was given.
int print_rejected(const ws::Repository& repo, const Options& o) {
  if (!o.common.json) {
    fmt::print("rejected {}\n", o.reject);
    return wscli::kExitOk;
  }
  auto info = ws::find_proposal(repo, o.reject);
  if (!info) return wscli::report_error(kTool, info.error());
  auto j = ws::json_record("rejected");
  j["id"] = info->id;
  fmt::print("{}\n", ws::json_text(std::move(j)));
  return wscli::kExitOk;
}

int do_continue(const ws::OpenOptions& open, const Options& o) {
  auto done = ws::continue_apply(open);
  if (!done) return wscli::report_error(kTool, done.error());
  print_applied(*done, done->proposal, o);
  if (!done->index_kept.empty()) {
    std::string paths;
    for (const auto& p : done->index_kept) paths += (paths.empty() ? "'" : ", '") + p + "'";
    wscli::print_warning(kTool, "the index keeps what was staged at " + paths +
                                    " since the apply; it differs from the applied commit there");
  }
  return wscli::kExitOk;
}

}  // namespace

int wstools::run_apply(int argc, char** argv) {
  Options o;
  wscli::App app{"List, show, reject and apply proposals. Applying one makes exactly one commit on its branch.",
               kTool};
  app.get_formatter()->column_width(30);
  wscli::add_common_options(app, o.common, /*with_z=*/false);
  app.add_flag("--list", o.list, "list every session's proposals with their state (--session NAME: that session's)");
  app.add_flag("--all-sessions", o.all_sessions, "with --list: every session's proposals (the default; kept for scripts)");
  app.add_flag("--all", o.all, "with --list: the applied, rejected and superseded proposals too");
  app.add_option("--show", o.show,
                 "show a proposal: header, build result, definitions affected, message, diffstat and the exact diff")
      ->type_name("ID");
  app.add_flag("--stat", o.stat, "with --show: the diffstat only");
  app.add_option("--reject", o.reject, "reject a proposal (with -m REASON); it can never be applied")->type_name("ID");
  app.add_option("-m,--message", o.reason, "with --reject: why, recorded with who and when")->type_name("REASON");
  app.add_flag("--prune", o.prune, "delete the refs of applied, rejected and superseded proposals");
  wscli::add_count_option(app, "--older-than", o.older_than, "with --prune: only those settled at least DAYS days ago")
      ->type_name("DAYS");
  app.add_flag("-n,--dry-run", o.dry_run, "with --prune: say what would be pruned, delete nothing");
  app.add_option("--branch", o.branch, "apply onto BRANCH instead of the one the proposal names")->type_name("BRANCH");
  app.add_flag("--rebase", o.rebase, "apply a stale proposal onto the new tip if none of its paths changed there");
  app.add_flag("--allow-policy-change", o.allow_policy_change,
               "apply a proposal that changes the workspace's policy (.ws/)");
  app.add_flag("--continue", o.continue_, "complete an apply that was interrupted after the branch moved");
  app.add_option("id", o.id, "the proposal to apply")->type_name("ID");
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;

  int modes = int(o.list) + int(!o.show.empty()) + int(!o.reject.empty()) + int(!o.id.empty()) + int(o.continue_) +
              int(o.prune);
  if (modes != 1) {
    fmt::print(stderr, "{}: say what to do: --list, --show ID, --reject ID -m REASON, --prune, --continue, or ID to apply\n",
               kTool);
    return wscli::kExitUsage;
  }
  if (int code = check_companions(o)) return code;
  auto repo = ws::Repository::open(o.common.dir);
  if (!repo) return wscli::report_error(kTool, repo.error());
  // Reading modes report an interrupted apply; rejecting is refused past
  // one (applying checks for itself, --continue completes it).
  if (o.id.empty() && !o.continue_) {
    auto notices = ws::check_interrupted_apply(
        *repo, o.reject.empty() && !o.prune ? ws::InterruptedApply::report : ws::InterruptedApply::refuse);
    if (!notices) return wscli::report_error(kTool, notices.error());
    for (const auto& n : *notices) wscli::print_error(kTool, n);
  }
  // A --list filter may name a linked worktree's session (NAME@WORKTREE),
  // which no tool stages under by name: list_proposals checks it.
  if (o.list) return do_list(*repo, o);
  if (o.prune) return do_prune(*repo, o);
  auto session = wscli::resolve_session(o.common);
  if (!session) return wscli::report_error(kTool, session.error());

  ws::OpenOptions open;
  open.dir = o.common.dir;
  open.session = *session;
  if (o.continue_) return do_continue(open, o);
  if (!o.show.empty()) return do_show(*repo, o);
  if (!o.reject.empty()) {
    auto st = ws::reject_proposal(*repo, o.reject, o.reason);
    if (!st) return wscli::report_error(kTool, st.error());
    return print_rejected(*repo, o);
  }
  open.interrupted_apply = ws::InterruptedApply::ignore;  // apply_proposal looks first
  ws::ApplyOptions ao;
  ao.branch = o.branch;
  ao.rebase = o.rebase;
  ao.allow_policy_change = o.allow_policy_change;
  auto applied = ws::apply_proposal(open, o.id, ao, ws::rebuild_with_compile);
  if (!applied) return wscli::report_error(kTool, applied.error());
  print_applied(*applied, o.id, o);
  if (!applied->index_error.empty())
    wscli::print_warning(kTool, "the apply did not finish (" + applied->index_error +
                                    "); run 'ws-apply --continue' to complete it");
  // Everything is written (branch, refs, index); only teardown is left.
  wscli::exit_without_teardown(wscli::kExitOk);
}
