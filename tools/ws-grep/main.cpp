// ws-grep: search the view with RE2, printed like `rg --no-heading`.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/paths.h"
#include "common/tools.h"
#include "common/count_option.h"
#include "libcheck/compile.h"
#include "libcheck/grep.h"
#include "ws-grep/rg_flags.h"

namespace {

constexpr const char* kTool = "ws-grep";

struct Options {
  wscli::CommonOptions common;
  wscli::ViewOptions view;
  bool base_only = false;  // --base given, with or without REV
  std::vector<std::string> regexps;
  std::vector<std::string> args;  // PATTERN then PATHSPECs (only PATHSPECs with -e/--ref/--defines)
  bool fixed = false, ignore_case = false, word = false, invert = false;
  bool line_number = false, no_line_number = false, column = false;
  bool files = false, count = false, only = false;
  std::optional<std::size_t> max_count;
  std::optional<std::size_t> after, before, context;
  std::vector<std::string> kinds, in;
  std::vector<std::string> ref, defines;
  std::optional<std::size_t> max;
  bool stats = false;
  wsgrep::RgFlags rg;  // -L, --files, -g, -H/-I, -s
};

ws::SyntaxClass class_of(const std::string& s) {
  if (s == "comment") return ws::SyntaxClass::comment;
  if (s == "string") return ws::SyntaxClass::string;
  if (s == "key") return ws::SyntaxClass::key;
  if (s == "value") return ws::SyntaxClass::value;
  return ws::SyntaxClass::code;
}

void add_options(CLI::App& app, Options& o) {
  wscli::add_common_options(app, o.common, /*with_z=*/true);
  // -C is context here, as in grep and rg; the directory is --directory.
  app.remove_option(app.get_option("-C"));
  app.add_option("--directory", o.common.dir, "run as if started in DIR (what -C DIR is for the other tools)")
      ->type_name("DIR");
  wscli::add_view_options(app, o.view);
  // For ws-grep, --base means "search the committed base only", read from the
  // object database without a checkout; the other tools' --base REV sets the
  // base that pending changes are compared with. Its REV is optional, so it
  // is taken only after '=': `ws-grep --base PATTERN` searches HEAD.
  app.remove_option(app.get_option("--base"));
  wscli::add_optional_value_option(app, "--base", o.view.base, "HEAD", "REV",
                                   "search the committed base only (HEAD, or REV with --base=REV), read from "
                                   "the object database");
  app.add_option("-e,--regexp", o.regexps, "a pattern (repeatable: any of them matches); PATTERN is then a PATHSPEC")
      ->type_name("PATTERN")
      ->allow_extra_args(false);
  app.add_flag("-F,--fixed-strings", o.fixed, "patterns are literal strings, not regular expressions");
  app.add_flag("-i,--ignore-case", o.ignore_case, "match case-insensitively");
  app.add_flag("-w,--word-regexp", o.word, "only matches surrounded by word boundaries");
  app.add_flag("-v,--invert-match", o.invert, "select the lines that do not match");
  app.add_flag("-n,--line-number", o.line_number, "show line numbers (the default)");
  app.add_flag("-N,--no-line-number", o.no_line_number, "do not show line numbers");
  app.add_flag("--column", o.column, "show the column (1-based, in bytes) of the first match");
  app.add_flag("-l,--files-with-matches", o.files, "print only the paths of files with a match");
  app.add_flag("-c,--count", o.count, "print path:count of matching lines (of matches with -o)");
  app.add_flag("-o,--only-matching", o.only, "print each match on its own line");
  wscli::add_count_option(app, "-m,--max-count", o.max_count, "stop a file after N selected lines");
  wscli::add_count_option(app, "-A,--after-context", o.after, "show N lines after each match");
  wscli::add_count_option(app, "-B,--before-context", o.before, "show N lines before each match");
  wscli::add_count_option(app, "-C,--context", o.context, "show N lines before and after each match");
  wsgrep::add_rg_flags(app, o.rg);
  app.add_option("--kind", o.kinds, "only definitions of KIND (repeatable)")->type_name("KIND")->allow_extra_args(false);
  app.add_option("--in", o.in, "a match counts only inside CLASS (repeatable)")
      ->type_name("CLASS")
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"code", "comment", "string", "key", "value"}));
  app.add_option("--ref", o.ref,
                 "positions that reference SYMBOL (Agents.Triage, N.Ticket.Status); repeatable; no PATTERN")
      ->type_name("SYMBOL")
      ->allow_extra_args(false);
  app.add_option("--defines", o.defines, "where SYMBOL is defined; repeatable; no PATTERN")
      ->type_name("SYMBOL")
      ->allow_extra_args(false);
  wscli::add_count_option(app, "--max", o.max, "print at most N results, then a Grep-Truncated record");
  app.add_flag("--stats", o.stats, "after the results, counts on stderr, with the files skipped");
  app.add_option("PATTERN", o.args,
                 "the pattern (unless -e, --ref or --defines gives it), then PATHSPECs: "
                 "paths, folders or globs from the current folder (':/' for the root)")
      ->type_name("");
}

void print_stats(const ws::GrepSummary& s) {
  fmt::print(stderr, "{}: {} {} in {} {}; {} {} searched\n", kTool, s.results, s.results == 1 ? "result" : "results",
             s.files_matched, s.files_matched == 1 ? "file" : "files", s.files_searched,
             s.files_searched == 1 ? "file" : "files");
  if (s.files_from_index)
    fmt::print(stderr, "{}: {} of them answered from the index of the base commit, without parsing\n", kTool,
               s.files_from_index);
  for (const auto& p : s.binary_skipped) wscli::print_error(kTool, fmt::format("skipped binary file '{}'", p));
  for (const auto& p : s.links_skipped)
    wscli::print_error(kTool, fmt::format("skipped '{}': links and submodules are never followed", p));
  for (const auto& p : s.hard_links_skipped)
    wscli::print_error(
        kTool, fmt::format("skipped '{}': hard-link (a file with more than one link may be a link out of the workspace)", p));
  if (s.secrets_skipped)
    fmt::print(stderr, "{}: skipped {} {} under .secrets/: secret content is never opened\n", kTool,
               s.secrets_skipped, s.secrets_skipped == 1 ? "file" : "files");
  for (const auto& p : s.secret_bytes_skipped)
    fmt::print(stderr, "{}: skipped '{}': it holds a secret's bytes, which are never searched or shown\n", kTool, p);
}

}  // namespace

int wstools::run_grep(int argc, char** argv) {
  Options o;
  wscli::App app{"Search the files of the view (base + pending changes) with RE2, printed like "
               "'rg --no-heading'.\n  ws-grep [OPTIONS] PATTERN [PATHSPEC...]\n"
               "  ws-grep [OPTIONS] (-e PATTERN | --ref SYMBOL | --defines SYMBOL)... [PATHSPEC...]",
               kTool};
  app.get_formatter()->column_width(34);
  app.footer(
      "Every non-secret file of the view is searched (unrouted files and .ws/ included); --kind restricts "
      "to definitions. .secrets/ is never opened; links and submodules are never followed; files with "
      "several hard links and binary files are skipped (listed by --stats).\n"
      "-C is context, as in grep and rg; --directory DIR is the other tools' -C DIR.\n"
      "--json records: \"match\" (one per match), \"context\", \"file\" (with -l, -L or -c), \"Grep-Truncated\", "
      "and a final \"summary\".\n"
      "Exit status: 0 a match, 1 no match, 2 an error (then one line on stderr says which).");
  add_options(app, o);
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;

  ws::GrepOptions g;
  g.patterns = o.regexps;
  std::vector<std::string> specs_in = o.args;
  bool structural = !o.ref.empty() || !o.defines.empty();
  if (g.patterns.empty() && !structural && !o.rg.list_files) {
    if (specs_in.empty()) {
      fmt::print(stderr, "{}: missing PATTERN; see '{} --help'\n", kTool, kTool);
      return wscli::kExitUsage;
    }
    g.patterns.push_back(specs_in.front());
    specs_in.erase(specs_in.begin());
  }
  g.fixed_strings = o.fixed;
  g.ignore_case = o.ignore_case;
  g.word = o.word;
  g.invert = o.invert;
  g.line_number = !o.no_line_number;
  g.column = o.column;
  g.mode = o.count ? ws::GrepMode::count
           : o.files ? ws::GrepMode::files
           : o.only  ? ws::GrepMode::only_matching
                     : ws::GrepMode::lines;
  g.count_matches = o.count && o.only && !o.invert;
  g.nul = o.common.nul;
  g.json = o.common.json;
  g.color = !g.json && wscli::use_color(o.common, stdout);
  // rg's bytes in a pipe (the tests compare them with rg's); on a terminal,
  // the workspace's control characters are shown escaped (ws-grep(1)).
  g.terminal = !g.json && isatty(STDOUT_FILENO);
  g.max_count = o.max_count;
  g.before = o.before.value_or(o.context.value_or(0));
  g.after = o.after.value_or(o.context.value_or(0));
  g.kinds = o.kinds;
  for (const auto& c : o.in) g.in.push_back(class_of(c));
  g.ref = o.ref;
  g.defines = o.defines;
  g.max = o.max;
  // -q asks only whether there is a match: the first one ends the search,
  // unless --stats asks for the counts of a whole one (as rg).
  g.stop_at_first = o.common.quiet && !o.stats;
  if (auto applied = wsgrep::apply_rg_flags(app, o.rg, g); !applied) return wscli::report_error(kTool, applied.error());

  o.base_only = app.get_option("--base")->count() > 0;
  wscli::ViewOptions view = o.view;
  // A search needs the files of the view, not their status against HEAD;
  // --ref does, to answer unchanged files from the base's index.
  view.statuses = !g.ref.empty();
  if (o.base_only) {
    if (o.view.staged || !o.view.rev.empty() || !o.view.proposal.empty()) {
      fmt::print(stderr, "{}: --base searches the committed base only; drop --staged, --rev or --proposal\n", kTool);
      return wscli::kExitUsage;
    }
    // The base's own tree as a revision view: every entry is unchanged and
    // read from the object database, never from the working tree.
    std::string rev = o.view.base.empty() ? "HEAD" : o.view.base;
    view.rev = rev;
    view.base = rev;
  }

  int code = 0;
  auto workspace = wscli::open_or_report(kTool, o.common, view, code);
  if (!workspace) return code;
  for (const auto& w : workspace->warnings) wscli::print_warning(kTool, w);
  g.shown_from = wscli::path_prefix(*workspace, o.common);
  auto specs = wscli::parse_pathspecs_or_report(kTool, specs_in, g.shown_from, code);
  if (!specs) return code;
  g.pathspecs = ws::or_current_folder(std::move(*specs), g.shown_from);

  std::unique_ptr<ws::KnownDefinitions> known;
  if (!g.ref.empty()) known = ws::saved_base_definitions(*workspace);
  g.known = known.get();

  std::ios::sync_with_stdio(false);
  auto summary = ws::grep_view(workspace->view, workspace->kinds, g, std::cout);
  std::cout.flush();
  if (!summary) return wscli::report_error(kTool, summary.error());
  for (const auto& err : summary->errors) wscli::print_error(kTool, err.message);
  if (o.stats) print_stats(*summary);
  // As rg: an error makes the status 2 even when something matched. The
  // view is left to the kernel, as in ws-build and ws-ls.
  if (!summary->errors.empty()) wscli::exit_without_teardown(wscli::kExitUsage);
  wscli::exit_without_teardown(summary->results ? wscli::kExitOk : wscli::kExitFailed);
}
