// ws rename (ws-rename(1)): renames a definition or a field in its own file
// and in every file that refers to it, all or nothing, then builds.
#include <iostream>
#include <string>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/tools.h"
#include "libcheck/buffer_overlay.h"
#include "libcheck/compile.h"
#include "libcheck/json_output.h"
#include "libcheck/render.h"
#include "libcheck/rename.h"
#include "libcheck/text_diff.h"

namespace {

constexpr const char* kTool = "ws rename";

struct Options {
  wscli::CommonOptions common;
  std::string kind;
  std::string old_name;
  std::string new_name;
  bool dry_run = false;
  bool no_build = false;
};

void add_options(wscli::App& app, Options& o) {
  app.get_formatter()->column_width(30);
  app.add_option("-C", o.common.dir, "run as if started in DIR")->type_name("DIR");
  app.add_option("--color", o.common.color, "colour the build's findings: auto (default), always or never")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--json", o.common.json, "print a JSON record per edit, then a summary");
  app.add_flag("-q,--quiet", o.common.quiet, "print nothing on stdout: the exit status says it (errors still go to stderr)");
  app.add_flag("-n,--dry-run", o.dry_run, "write nothing: print the unified diff of every file (with --json, the edits)");
  app.add_flag("--no-build", o.no_build, "do not build after the rename");
  app.add_option("kind", o.kind, "the kind of the definition ('agent', 'node-type' ...), or 'field'")
      ->type_name("KIND")
      ->required();
  app.add_option("old", o.old_name, "the name to change; for a field, OWNER.FIELD")->type_name("OLD")->required();
  app.add_option("new", o.new_name, "the new name; for a field, the field's new name")->type_name("NEW")->required();
}

void print_edits_json(const ws::RenamePlan& plan) {
  for (const auto& f : plan.files)
    for (const auto& e : f.edits) {
      auto r = ws::json_record("edit");
      r["path"] = f.path;
      r["line"] = e.span.start.line;
      r["column"] = e.span.start.column;
      r["end_line"] = e.span.end.line;
      r["end_column"] = e.span.end.column;
      r["start"] = e.span.start_byte;
      r["end"] = e.span.end_byte;
      r["text"] = e.text;
      std::cout << ws::json_text(std::move(r)) << '\n';
    }
}

void print_summary(const ws::RenamePlan& plan, bool json, bool written) {
  if (json) {
    auto r = ws::json_record("summary");
    r["kind"] = plan.kind;
    r["old"] = plan.old_symbol;
    r["new"] = plan.new_symbol;
    r["files"] = plan.files.size();
    r["references"] = plan.references;
    r["written"] = written;
    std::cout << ws::json_text(std::move(r)) << '\n';
    return;
  }
  fmt::print("{} {} '{}' to '{}': {} file{}, {} reference{}\n", written ? "renamed" : "would rename", plan.kind,
             wscli::shown(plan.old_symbol), wscli::shown(plan.new_symbol), plan.files.size(),
             plan.files.size() == 1 ? "" : "s", plan.references, plan.references == 1 ? "" : "s");
  for (const auto& f : plan.files) fmt::print("  {}\n", wscli::shown(f.path));
}

// -n: the diff of every file, as git diff prints it.
int print_dry_run(const ws::RenamePlan& plan) {
  for (const auto& f : plan.files) {
    auto diff = ws::unified_diff(f.path, f.before, f.after);
    if (!diff) return wscli::report_error(kTool, diff.error());
    std::cout << *diff;
  }
  std::cout.flush();
  return wscli::kExitOk;
}

// The build of the working tree as the rename left it, as ws-build prints
// it: the view it was planned on with the files it wrote laid over it
// (buffer_overlay.h), which replace_all checked hold those bytes, so the
// workspace is not opened a second time.
int build_after(ws::Workspace& workspace, const ws::RenamePlan& plan, const Options& o) {
  ws::Buffers written;
  for (const auto& f : plan.files) written.emplace(f.path, f.after);
  auto view = ws::with_buffers(workspace, written);
  if (!view) return wscli::report_error(kTool, view.error());
  workspace.view = std::move(*view);
  auto result = ws::build(workspace, ws::BuildOptions{});
  if (!result) return wscli::report_error(kTool, result.error());
  if (!o.common.json) {
    ws::RenderOptions ro;
    ro.color = wscli::use_color(o.common, stdout);
    ro.tool_version = ws::tool_version();
    ro.source = [&workspace](const std::string& path) { return ws::read_view_path(workspace, path); };
    auto consumer = ws::make_consumer(ws::OutputFormat::human, std::cout, ro);
    consumer->begin();
    for (const auto& d : result->diagnostics) consumer->diagnostic(d);
    consumer->end(result->summary);
    std::cout.flush();
  }
  return result->summary.errors > 0 ? wscli::kExitFailed : wscli::kExitOk;
}

}  // namespace

int wstools::run_rename(int argc, char** argv) {
  Options o;
  wscli::App app{"Rename a definition, or a field, in its file and in every file that refers to it, in the working "
                 "tree: every file or none; then build.",
                 kTool};
  add_options(app, o);
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;

  int code = 0;
  wscli::ViewOptions view;
  view.changes_only = true;
  auto workspace = wscli::open_or_report(kTool, o.common, view, code, /*for_build=*/!o.dry_run && !o.no_build);
  if (!workspace) return code;
  auto known = ws::saved_base_definitions(*workspace);
  auto plan = ws::plan_rename(*workspace, ws::RenameRequest{o.kind, o.old_name, o.new_name}, known.get());
  if (!plan) return wscli::report_error(kTool, plan.error());
  if (o.dry_run) {
    if (!o.common.json) return print_dry_run(*plan);
    print_edits_json(*plan);
    print_summary(*plan, true, false);
    return wscli::kExitOk;
  }
  if (auto done = ws::apply_rename(*workspace, *plan); !done) return wscli::report_error(kTool, done.error());
  if (o.common.json) print_edits_json(*plan);
  print_summary(*plan, o.common.json, true);
  std::cout.flush();
  return o.no_build ? wscli::kExitOk : build_after(*workspace, *plan, o);
}
