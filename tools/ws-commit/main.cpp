// ws-commit: build the view, then stage the whole changeset as one proposal.
// Never touches the branch, the index or the working tree.
#include <cstdio>
#include <iostream>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "common/cli.h"
#include "common/tools.h"
#include "common/progress.h"
#include "common/proposal_text.h"
#include "libcheck/compile.h"
#include "libcheck/json_output.h"
#include "libcheck/policy_change.h"
#include "libcheck/proposal.h"
#include "libcheck/proposal_json.h"
#include "libcheck/render.h"

namespace {

constexpr const char* kTool = "ws-commit";

struct Options {
  wscli::CommonOptions common;
  wscli::ViewOptions view;
  std::string message;
  bool no_cache = false;
  wscli::ProgressMode progress = wscli::ProgressMode::auto_;
};

}  // namespace

int wstools::run_commit(int argc, char** argv) {
  Options o;
  wscli::App app{"Build the view and stage its changes as one proposal (refs/ws/proposals/<session>).", kTool};
  app.get_formatter()->column_width(30);
  wscli::add_common_options(app, o.common, /*with_z=*/false);
  wscli::add_view_options(app, o.view);
  app.add_option("-m,--message", o.message, "what the change does (required)")->type_name("MSG");
  app.add_flag("--no-cache", o.no_cache, "neither read nor write the definition cache");
  wscli::add_progress_options(app, o.progress);
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;
  if (o.message.empty()) {
    fmt::print(stderr, "{}: a proposal needs a message: pass -m MSG\n", kTool);
    return wscli::kExitUsage;
  }
  if (!o.view.proposal.empty()) {
    fmt::print(stderr, "{}: --proposal views an existing proposal; it cannot be staged again\n", kTool);
    return wscli::kExitUsage;
  }
  int code = 0;
  // A working-tree view of the changes only: the build on the base's index
  // and the proposal need nothing else (build() opens the whole view when
  // it must).
  o.view.changes_only = !o.no_cache && !o.view.staged && o.view.rev.empty();
  // Staged on top of an apply that did not finish, the index would carry its reverse: refused.
  auto workspace = wscli::open_or_report(kTool, o.common, o.view, code, /*for_build=*/!o.no_cache,
                                         ws::InterruptedApply::refuse);
  if (!workspace) return code;

  ws::BuildOptions bo;
  bo.use_cache = !o.no_cache;
  bo.progress = wscli::build_progress(kTool, o.progress, o.common.json);
  auto built = ws::build(*workspace, bo);
  if (!built) return wscli::report_error(kTool, built.error());
  if (built->summary.errors > 0) {
    ws::RenderOptions ro;
    ro.color = wscli::use_color(o.common, stderr);
    // Never a secret's lines: the view refuses to read one.
    ro.source = [&](const std::string& path) { return ws::read_view_path(*workspace, path); };
    auto consumer = ws::make_consumer(ws::OutputFormat::human, std::cerr, ro);
    consumer->begin();
    for (const auto& d : built->diagnostics) consumer->diagnostic(d);
    consumer->end(built->summary);
    std::cerr.flush();
    fmt::print(stderr, "{}: refused: the changeset does not build; no proposal was written\n", kTool);
    return wscli::kExitFailed;
  }

  auto staged = ws::stage_proposal(*workspace, o.message);
  if (!staged) return wscli::report_error(kTool, staged.error());

  if (o.common.json) {
    fmt::print("{}\n", ws::json_text(ws::staged_json(*staged)));
    wscli::exit_without_teardown(wscli::kExitOk);
  }
  fmt::print("proposal {}\n", staged->id);
  fmt::print("session  {}\n", wscli::shown(staged->session));
  fmt::print("base     {}\n", staged->base.empty() ? "(none: unborn branch)" : staged->base);
  if (!staged->superseded.empty()) fmt::print("supersedes {}\n", staged->superseded);
  for (const auto& p : ws::policy_paths(staged->files)) fmt::print("policy change: {}\n", wscli::shown(p));
  fmt::print("{}", wscli::shown_stat(staged->stat, staged->files));
  // The proposal is written; freeing the view's 20,000 entries one by one
  // would only delay the exit.
  wscli::exit_without_teardown(wscli::kExitOk);
}
