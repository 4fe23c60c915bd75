// ws-build: compile the view's changeset against the pending-definitions
// overlay and report diagnostics (ws-build(1)).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/impact_text.h"
#include "common/paths.h"
#include "common/tools.h"
#include "common/progress.h"
#include "libcheck/change_plan.h"
#include "libcheck/compile.h"
#include "libcheck/json_output.h"
#include "libcheck/render.h"

namespace {

constexpr const char* kTool = "ws-build";

struct Options {
  wscli::CommonOptions common;
  wscli::ViewOptions view;
  bool all = false;
  std::string format;
  bool werror = false;
  bool no_cache = false;
  bool stats = false;
  bool no_merge = false;
  bool impact = false;
  wscli::ProgressMode progress = wscli::ProgressMode::auto_;
  std::vector<std::string> pathspecs;
};

void add_options(wscli::App& app, Options& o) {
  app.get_formatter()->column_width(30);
  wscli::add_common_options(app, o.common, /*with_z=*/false);
  wscli::add_view_options(app, o.view);
  app.get_option("--json")->description("same as --format json: a record per diagnostic, then a summary");
  app.add_flag("--all", o.all, "check every definition of the view, not only the changed ones");
  app.add_option("--format", o.format, "output: human (default), json, sarif, github, gitlab or junit")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"human", "json", "sarif", "github", "gitlab", "junit"}));
  app.add_flag("--werror", o.werror, "fail (exit 1) on warnings too");
  app.add_flag("--no-cache", o.no_cache, "neither read nor write the definition cache");
  app.add_flag("--no-merge", o.no_merge,
               "with --rev: compare the two trees as they are, even when --base is not an ancestor of --rev");
  app.add_flag("--impact", o.impact,
               "list the definitions whose references reach a changed name, directly or through others, "
               "each with its path of references (with --json: the plan records)");
  app.add_flag("--stats", o.stats, "print 'parsed N, cache hits M, cache misses K' on stderr");
  wscli::add_progress_options(app, o.progress);
  app.add_option("pathspec", o.pathspecs, "only compile changes to these paths, folders or globs, from the current folder (':/' for the root)")
      ->type_name("PATHSPEC");
}

// A pathspec naming nothing in the view is a typo, not a clean build: the
// exit code after saying so, else 0.
int refuse_unmatched(const ws::Workspace& workspace, const std::vector<ws::Pathspec>& specs) {
  std::vector<std::size_t> unmatched;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& entries = workspace.view.entries();
    if (std::none_of(entries.begin(), entries.end(), [&](const ws::ViewEntry& e) {
          return ws::pathspec_matches(specs[i], e.path) ||
                 (!e.old_path.empty() && ws::pathspec_matches(specs[i], e.old_path));
        }))
      unmatched.push_back(i);
  }
  return wscli::report_unmatched(kTool, specs, unmatched);
}

// The findings in `format` on stdout, paths from the current folder; with
// `impact`, the Impact section before them (human) or the plan records
// before the summary (json).
void render(const Options& o, ws::OutputFormat format, const ws::Workspace& w, const ws::PathPrefix& prefix,
            const ws::BuildResult& result, const ws::ChangeImpact* impact) {
  ws::RenderOptions ro;
  ro.color = format == ws::OutputFormat::human && wscli::use_color(o.common, stdout);
  ro.tool_version = ws::tool_version();
  ro.warnings_fail = o.werror;
  if (!prefix.folder.empty())
    ro.shown_path = [&prefix](const std::string& path) { return ws::path_from_prefix(path, prefix); };
  // Source lines to quote; never a secret's (the view refuses to read one).
  ro.source = [&w](const std::string& path) { return ws::read_view_path(w, path); };
  if (impact && format == ws::OutputFormat::human) wscli::write_impact_text(std::cout, *impact, ro.shown_path);
  auto consumer = ws::make_consumer(format, std::cout, ro);
  consumer->begin();
  for (const auto& d : result.diagnostics) consumer->diagnostic(d);
  if (impact && format == ws::OutputFormat::json)
    for (auto& record : ws::plan_records(*impact)) std::cout << ws::json_text(std::move(record)) << '\n';
  consumer->end(result.summary);
  std::cout.flush();
}

void print_stats(const Options& o, const ws::BuildStats& st) {
  if (o.stats) fmt::print(stderr, "parsed {}, cache hits {}, cache misses {}\n", st.parsed, st.cache_hits, st.cache_misses);
  if (o.stats && st.partly_read > 0)
    fmt::print(stderr, "partly read {} (checked files whose references may be incomplete)\n", st.partly_read);
  if (!st.cache_error.empty()) wscli::print_warning(kTool, st.cache_error);
}

}  // namespace

int wstools::run_build(int argc, char** argv) {
  Options o;
  wscli::App app{"Compile the pending changes of the view against the base plus those changes, and report "
               "every error with its file, line and column.",
               kTool};
  add_options(app, o);
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;

  if (o.common.json && !o.format.empty() && o.format != "json")
    return wscli::report_error(kTool, ws::make_error(ws::Errc::usage, "--json means --format json: drop one"));
  std::string format_name = o.common.json ? "json" : o.format.empty() ? "human" : o.format;
  ws::OutputFormat format = *ws::parse_output_format(format_name);
  if (o.impact && format != ws::OutputFormat::human && format != ws::OutputFormat::json)
    return wscli::report_error(kTool, ws::make_error(ws::Errc::usage, "--impact goes with the human or json format, not '" +
                                                                          format_name + "'"));

  int code = 0;
  // A build on a saved index of its base reads the changes only (build()
  // opens the whole view when it needs it); a pathspec is checked against
  // every path.
  // A request checked against a target it forked from is checked as what
  // will land: the merge (ws-build(1), MERGE RESULTS).
  o.view.merge = !o.no_merge;
  o.view.changes_only = !o.all && !o.no_cache && o.pathspecs.empty();
  auto workspace = wscli::open_or_report(kTool, o.common, o.view, code, /*for_build=*/!o.no_cache);
  if (!workspace) return code;
  for (const auto& w : workspace->warnings) wscli::print_warning(kTool, w);
  // A build checks the whole changeset wherever it runs, as git commit
  // does; pathspecs and the paths it prints are from the current folder.
  const ws::PathPrefix prefix = wscli::path_prefix(*workspace, o.common);
  auto specs = wscli::parse_pathspecs_or_report(kTool, o.pathspecs, prefix, code);
  if (!specs) return code;
  if (int unmatched_code = refuse_unmatched(*workspace, *specs)) return unmatched_code;

  ws::BuildOptions bo;
  bo.all = o.all;
  bo.use_cache = !o.no_cache;
  bo.pathspecs = std::move(*specs);
  bo.list_checked = format == ws::OutputFormat::junit;
  bo.progress = wscli::build_progress(kTool, o.progress, format != ws::OutputFormat::human);
  // Only asked for: a change may reach much of the workspace, and the walk
  // and its records then cost many times a warm build (ws-build(1), IMPACT).
  ws::ChangeImpact impact;
  if (o.impact) bo.impact = &impact;
  bo.impact_fields = format == ws::OutputFormat::json;
  bo.impact_referrers = false;  // ws-apply --show's; the Impact section and the plan list `impacted`
  auto result = ws::build(*workspace, bo);
  if (!result) return wscli::report_error(kTool, result.error());

  render(o, format, *workspace, prefix, *result, o.impact ? &impact : nullptr);
  print_stats(o, result->stats);
  const ws::BuildSummary& s = result->summary;
  wscli::exit_without_teardown(s.errors > 0 || (o.werror && s.warnings > 0) ? wscli::kExitFailed : wscli::kExitOk);
}
