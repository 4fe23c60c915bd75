#include "ws-grep/rg_flags.h"

#include "libcheck/search_glob.h"

namespace wsgrep {

void add_rg_flags(CLI::App& app, RgFlags& f) {
  app.add_flag("-L,--files-without-match", f.files_without_match,
               "print only the paths of the files searched without a match (grep's -L; last of -l and -L wins)");
  app.add_flag("--files", f.list_files, "print the paths that would be searched, without searching; no PATTERN");
  app.add_option("-g,--glob", f.globs,
                 "search only paths GLOB matches, from the root; '!GLOB' excludes; repeatable, the last match wins")
      ->type_name("GLOB");
  app.add_flag("-H,--with-filename", f.with_filename, "print the path with each line (the default)");
  app.add_flag("-I,--no-filename", f.no_filename, "print lines and counts without their path");
  app.add_flag("-s,--case-sensitive", f.case_sensitive, "match case-sensitively (the default; overrides an earlier -i)");
}

std::string last_given(const CLI::App& app, std::initializer_list<const char*> names) {
  const auto& order = app.parse_order();
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (const char* name : names)
      if (*it == app.get_option_no_throw(name)) return name;
  return "";
}

namespace {

ws::Status add_globs(const std::vector<std::string>& texts, ws::GrepOptions& g) {
  for (const auto& text : texts) {
    auto globs = ws::parse_search_glob(text);
    if (!globs) return globs.error();
    g.globs.insert(g.globs.end(), globs->begin(), globs->end());
  }
  return ws::Ok{};
}

}  // namespace

ws::Status apply_rg_flags(const CLI::App& app, const RgFlags& f, ws::GrepOptions& g) {
  if (f.case_sensitive && last_given(app, {"-i", "-s"}) == "-s") g.ignore_case = false;
  if (f.no_filename && last_given(app, {"-H", "-I"}) == "-I") g.filename = false;
  // -c prints counts whatever else is asked, as in rg; -l and -L override
  // each other.
  if (f.files_without_match && g.mode != ws::GrepMode::count &&
      (g.mode != ws::GrepMode::files || last_given(app, {"-l", "-L"}) == "-L"))
    g.mode = ws::GrepMode::files_without_match;
  if (f.list_files) {
    if (!g.patterns.empty() || !g.ref.empty() || !g.defines.empty())
      return ws::make_error(ws::Errc::usage,
                            "--files lists what would be searched and takes no pattern: drop -e, --ref or --defines");
    g.mode = ws::GrepMode::list;
  }
  return add_globs(f.globs, g);
}

}  // namespace wsgrep
