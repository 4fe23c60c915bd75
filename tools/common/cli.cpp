#include "common/cli.h"

#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <fmt/core.h>

#include "libcheck/kinds.h"
#include "libcheck/terminal_text.h"

namespace wscli {

void add_common_options(CLI::App& app, CommonOptions& o, bool with_z) {
  app.add_option("-C", o.dir, "run as if started in DIR")->type_name("DIR");
  app.add_option("--session", o.session, "session name (default: $WS_SESSION, else 'default')")
      ->type_name("NAME");
  app.add_option("--color", o.color, "colour output: auto, always or never (honours NO_COLOR)")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--json", o.json, "JSON Lines output: one object per record");
  if (with_z) app.add_flag("-z", o.nul, "end each printed path with NUL instead of newline");
  app.add_flag("-q,--quiet", o.quiet, "print nothing on stdout: the exit status says it (errors still go to stderr)");
  app.add_flag("--version", o.version, "print the version and the grammar versions");
}

void add_view_options(CLI::App& app, ViewOptions& v) {
  app.add_flag("--staged", v.staged, "pending changes are the index (for pre-commit hooks)");
  app.add_option("--rev", v.rev, "pending changes are the tree of REV (for CI)")->type_name("REV");
  app.add_option("--base", v.base, "base commit (default: HEAD)")->type_name("REV");
  app.add_option("--proposal", v.proposal, "view a proposal: its parent plus its tree")
      ->type_name("ID");
}

CLI::Option* add_optional_value_option(CLI::App& app, const std::string& name, std::string& target,
                                       const std::string& when_bare, const std::string& value_name,
                                       const std::string& help) {
  // A CLI11 flag never takes the next argument, and takes "--name=VALUE"
  // as its value; "{...}" is its value when given bare.
  return app.add_flag(name + "{" + when_bare + "}", target, help)->type_name("[=" + value_name + "]");
}

ws::Result<std::string> resolve_session(const CommonOptions& o) {
  std::string s = o.session;
  if (s.empty()) {
    const char* env = std::getenv("WS_SESSION");
    s = env && *env ? env : "default";
  }
  if (!ws::is_valid_session(s))
    return ws::make_error(ws::Errc::usage,
                          fmt::format("invalid session name '{}': use letters, digits, '.', '_' "
                                      "and '-', starting with a letter or digit", s), s);
  return s;
}

ws::Result<ws::ViewSpec> to_view_spec(const ViewOptions& v) {
  ws::ViewSpec spec;
  int sources = int(v.staged) + int(!v.rev.empty()) + int(!v.proposal.empty());
  if (sources > 1)
    return ws::make_error(ws::Errc::usage, "--staged, --rev and --proposal are exclusive: pick one");
  if (!v.proposal.empty() && !v.base.empty())
    return ws::make_error(ws::Errc::usage, "--proposal sets its own base: drop --base");
  spec.base = v.base;
  spec.statuses = v.statuses;
  spec.changes_only = v.changes_only;
  spec.merge = v.merge;
  if (v.staged) spec.source = ws::ViewSource::staged;
  else if (!v.rev.empty()) { spec.source = ws::ViewSource::rev; spec.rev = v.rev; }
  else if (!v.proposal.empty()) { spec.source = ws::ViewSource::proposal; spec.proposal = v.proposal; }
  return spec;
}

bool use_color(const CommonOptions& o, std::FILE* stream) {
  if (o.color == "always") return true;
  if (o.color == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return isatty(fileno(stream));
}

void exit_without_teardown(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__)
  // LeakSanitizer checks at exit(); _Exit would skip it. What main built is
  // still on this stack, so it counts as reachable, not as a leak.
  std::exit(code);
#else
  std::_Exit(code);
#endif
}

int exit_code_for(const ws::Error& e) {
  switch (e.code) {
    case ws::Errc::refused: return kExitFailed;
    default: return kExitUsage;
  }
}

int report_error(const char* tool, const ws::Error& e) {
  print_error(tool, e.message);
  return exit_code_for(e);
}

void print_error(const char* tool, std::string_view message) {
  fmt::print(stderr, "{}: {}\n", tool, shown(message));
}

void print_warning(const char* tool, std::string_view message) {
  fmt::print(stderr, "{}: warning: {}\n", tool, shown(message));
}

bool write_all_stdout(std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(STDOUT_FILENO, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string shown(std::string_view text) { return ws::terminal_safe(text, ws::LineBreaks::escape); }

std::optional<ws::Workspace> open_or_report(const char* tool, const CommonOptions& o,
                                            const ViewOptions& v, int& exit_code, bool for_build,
                                            ws::InterruptedApply on_interrupted) {
  auto session = resolve_session(o);
  if (!session) { exit_code = report_error(tool, session.error()); return std::nullopt; }
  auto spec = to_view_spec(v);
  if (!spec) { exit_code = report_error(tool, spec.error()); return std::nullopt; }
  ws::OpenOptions oo;
  oo.dir = o.dir;
  oo.session = *session;
  oo.view = *spec;
  oo.prefetch_cache = for_build;
  oo.interrupted_apply = on_interrupted;
  auto w = ws::open_workspace(oo);
  if (!w) { exit_code = report_error(tool, w.error()); return std::nullopt; }
  for (const auto& n : w->notices) print_error(tool, n);
  return std::move(w).value();
}

std::string version_line(const char* tool) {
  return fmt::format("{} {} ({})", tool, WS_VERSION, WS_GRAMMAR_VERSIONS);
}

namespace {

// Thrown by --help-options as soon as CLI11 sees it (trigger_on_parse), so
// that nothing else on the command line (a bad value, a missing argument) can
// get in its way.
struct OptionTableRequested {};

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// The members of an IsMember check, from its description "{a,b,c}"; nullopt
// for any other validator (a map "{a->b}" included).
std::optional<std::vector<std::string>> members_of(const std::string& description) {
  if (description.size() < 2 || description.front() != '{' || description.back() != '}' ||
      description.find("->") != std::string::npos)
    return std::nullopt;
  std::vector<std::string> out;
  std::string body = description.substr(1, description.size() - 2);
  std::size_t start = 0;
  while (start <= body.size()) {
    std::size_t comma = body.find(',', start);
    if (comma == std::string::npos) comma = body.size();
    if (comma > start) out.push_back(body.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// Names of the kinds of the default pack, sorted; empty when it cannot be loaded.
std::vector<std::string> default_kind_names() {
  std::vector<std::string> names;
  auto pack = ws::KindPack::load(ws::default_kinds_dir());
  if (!pack) return names;
  for (const auto& k : pack->kinds()) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string option_table(CLI::App& app) {
  std::string out;
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    std::vector<std::string> names;
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    if (names.empty()) names.push_back(opt->get_name(true));

    // get_type_name() is the type name followed by ":" and the description of
    // each validator; split them apart.
    std::string type = opt->get_type_name();
    std::vector<std::string> values;
    bool has_members = false;
    for (int i = 0;; ++i) {
      CLI::Validator* v = nullptr;
      try {
        v = opt->get_validator(i);
      } catch (const CLI::OptionNotFound&) {
        break;
      }
      std::string d = v->get_description();
      if (d.empty()) continue;
      std::string suffix = ":" + d;
      if (auto pos = type.rfind(suffix); pos != std::string::npos) type.erase(pos, suffix.size());
      if (auto m = members_of(d); m && !has_members) {
        values = *m;
        has_members = true;
      }
    }
    if (opt->get_items_expected_max() == 0 && type.rfind("[=", 0) != 0) type.clear();  // a flag
    if (!has_members && type == "KIND") values = default_kind_names();

    out += fmt::format("{}\t{}\t{}\t{}\n", join(names, ","), one_line(type), join(values, ","),
                       one_line(opt->get_description()));
  }
  return out;
}

namespace {

// A tool is one short pass over up to 100,000 definitions: what it frees it
// soon allocates again, and the kernel takes the whole heap back at exit.
// glibc's defaults suit long-lived programs instead: blocks from 128 KiB up
// get maps of their own, unmapped when freed, and the heap's free top is
// returned to the kernel, so each growth of a large vector faults in and
// zeroes fresh pages. Keeping such blocks in the heap (up to glibc's 32 MiB
// limit for the threshold) and never trimming it took a third of the page
// faults off a warm ws-build at 100,000 definitions (44,400 -> 30,800).
void tune_allocator() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

// -q/--quiet: standard output goes to /dev/null for the rest of the run, so
// no printer of any tool can leak a line past it. False when /dev/null
// cannot be opened.
bool silence_stdout() {
  std::fflush(stdout);
  int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return false;
  bool ok = ::dup2(null, STDOUT_FILENO) >= 0;
  ::close(null);
  return ok;
}

}  // namespace

std::optional<int> parse(App& app, int argc, char** argv, const CommonOptions& o, const char* tool) {
  tune_allocator();
  if (!app.get_option_no_throw("--help-options"))
    app.add_flag_callback("--help-options", [] { throw OptionTableRequested{}; },
                          "print the option table for completion scripts, then exit")
        ->group("")
        ->trigger_on_parse();
  prepare_exact_arguments(app);
  // CLI11 takes the arguments last first.
  std::vector<std::string> args;
  for (int i = argc - 1; i > 0; --i) args.emplace_back(argv[i]);
  try {
    app.parse(std::move(args));
  } catch (const OptionTableRequested&) {
    fmt::print("{}", option_table(app));
    return kExitOk;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
    print_error(tool, fmt::format("{}; see '{} --help'", what, tool));
    return kExitUsage;
  }
  if (auto settled = settle_arguments(app); !settled) return report_error(tool, settled.error());
  if (o.quiet && !silence_stdout()) {
    print_error(tool, "cannot open /dev/null for --quiet");
    return kExitUsage;
  }
  if (o.version) {
    fmt::print("{}\n", version_line(tool));
    return kExitOk;
  }
  return std::nullopt;
}

}  // namespace wscli
