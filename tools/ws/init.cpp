// ws init (ws(1), INIT): makes a repository a workspace, then says how to
// gate its changes (pre-commit, CI).
#include <string>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/tools.h"
#include "libcheck/kinds.h"
#include "libcheck/workspace_init.h"

namespace {

constexpr const char* kTool = "ws init";

void print_next_steps() {
  fmt::print(
      "\nnext:\n"
      "  ws build --all            check every definition\n"
      "  pre-commit hook           printf '#!/bin/sh\\nexec ws-build --staged\\n' > .git/hooks/pre-commit\n"
      "                            chmod +x .git/hooks/pre-commit\n"
      "                            (or the hook 'ws-build' of ws's .pre-commit-hooks.yaml, with pre-commit)\n"
      "  CI                        ws-build --base origin/main --rev HEAD, on a full clone\n"
      "                            (GitHub and GitLab recipes: docs/ci.md)\n");
}

}  // namespace

int wstools::run_init(int argc, char** argv) {
  wscli::CommonOptions common;
  wscli::App app{"Make .ws/config.json and a folder for each default kind in the repository's worktree; "
                 "git init is never run.",
                 kTool};
  app.get_formatter()->column_width(30);
  app.add_option("-C", common.dir, "run as if started in DIR")->type_name("DIR");
  app.add_flag("-q,--quiet", common.quiet, "print nothing on stdout: the exit status says it (errors still go to stderr)");
  if (auto code = wscli::parse(app, argc, argv, common, kTool)) return *code;

  auto done = ws::init_workspace(common.dir, ws::default_kinds_dir());
  if (!done) return wscli::report_error(kTool, done.error());
  fmt::print("initialised workspace '{}'\n", wscli::shown(done->root));
  for (const auto& d : done->created) fmt::print("created {}\n", wscli::shown(d));
  for (const auto& d : done->kept) fmt::print("kept {}\n", wscli::shown(d));
  fmt::print("created {}\n", done->config);
  print_next_steps();
  return wscli::kExitOk;
}
