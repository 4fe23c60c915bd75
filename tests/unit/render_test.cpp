// Golden tests of the diagnostic renderers (render.h): exact bytes for a fixed
// set of diagnostics in every format, the summary line, colour, escaping.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "libcheck/render.h"

using namespace ws;

namespace {

Span span(std::uint32_t l, std::uint32_t c, std::uint32_t el, std::uint32_t ec) {
  Span s;
  s.start = {l, c};
  s.end = {el, ec};
  return s;
}

using Files = std::map<std::string, std::string>;

RenderOptions options(Files files, bool color = false) {
  RenderOptions o;
  o.color = color;
  o.tool_version = "0.1.0";
  o.source = [files = std::move(files)](const std::string& p) -> std::optional<std::string> {
    auto it = files.find(p);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
  return o;
}

const Files kFiles{
    {"agents/triage.json", "{\n  \"name\": \"Triage\",\n  \"tools\": [\"Lookup\"]\n}\n"},
    {"ai-tools/lookup.cs", "// name: Lokup\nreturn 1;\n"},
    {"endpoints/get.cs", "// name: Get\nclass X {\n\tvar Agents = 1;\n}\n"},
};

// An error with a span and a note with a span, a warning on a tab-indented
// line, a file-level error with a location-less note, and a path with a comma
// and a colon whose source is unknown. Already in report order.
std::vector<Diagnostic> fixture() {
  std::vector<Diagnostic> ds;
  auto d1 = make_diag(DiagCode::unresolved_reference, "agents/triage.json", span(3, 13, 3, 21),
                      "no ai-tool named 'Lookup'");
  d1.notes.push_back(Note{"ai-tools/lookup.cs", span(1, 10, 1, 15), true, "did you mean 'Lokup'?"});
  ds.push_back(d1);
  ds.push_back(make_diag(DiagCode::shadowed_root, "endpoints/get.cs", span(3, 6, 3, 12),
                         "local 'Agents' shadows the symbol root 'Agents'"));
  auto d3 = make_file_diag(DiagCode::unrouted_file, "misc/notes.txt", "file is in no kind's folder");
  d3.notes.push_back(Note{"", {}, false, "move it under a kind's folder"});
  ds.push_back(d3);
  ds.push_back(make_diag(DiagCode::syntax_error, "prompts/a,b:c.md", span(1, 1, 1, 4),
                         "front matter does not start with '---'"));
  return ds;
}

BuildSummary fixture_summary() {
  BuildSummary s;
  s.files_changed = s.files_checked = 4;
  return tally(fixture(), s);
}

std::string render(OutputFormat f, const std::vector<Diagnostic>& ds, const BuildSummary& s,
                   const RenderOptions& o) {
  std::ostringstream out;
  auto consumer = make_consumer(f, out, o);
  render_all(*consumer, ds, s);
  return out.str();
}

std::string render(OutputFormat f, bool color = false) {
  return render(f, fixture(), fixture_summary(), options(kFiles, color));
}

}  // namespace

TEST_CASE("summary line wording", "[render]") {
  BuildSummary s;
  s.files_changed = 1;
  CHECK(summary_line(s) == "1 file changed, compiled clean.");
  s.files_changed = 2;
  CHECK(summary_line(s) == "2 files changed, compiled clean.");
  s.warnings = 1;
  CHECK(summary_line(s) == "2 files changed, compiled clean with 1 warning.");
  s.warnings = 3;
  CHECK(summary_line(s) == "2 files changed, compiled clean with 3 warnings.");
  s = {12, 12, 3, 0, 2, false};
  CHECK(summary_line(s) == "3 errors in 2 files (12 files changed)");
  s = {1, 1, 1, 0, 1, false};
  CHECK(summary_line(s) == "1 error in 1 file (1 file changed)");
  s = {1, 1, 1, 2, 1, false};
  CHECK(summary_line(s) == "1 error, 2 warnings in 1 file (1 file changed)");
  s = {0, 40, 1, 1, 2, true};
  CHECK(summary_line(s) == "1 error, 1 warning in 2 files (40 files checked)");
  s = {0, 1, 0, 0, 0, true};
  CHECK(summary_line(s) == "1 file checked, compiled clean.");
}

TEST_CASE("tally counts errors, warnings and the files they are in", "[render]") {
  auto ds = fixture();
  ds.push_back(make_diag(DiagCode::duplicate_name, "agents/triage.json", span(2, 3, 2, 9), "x"));
  BuildSummary base;
  base.files_changed = 7;
  base.all = true;
  BuildSummary s = tally(ds, base);
  CHECK(s.errors == 4);
  CHECK(s.warnings == 1);
  CHECK(s.files_with_errors == 4);
  CHECK(s.files_changed == 7);
  CHECK(s.all);
}

TEST_CASE("output format names", "[render]") {
  for (auto f : {OutputFormat::human, OutputFormat::json, OutputFormat::sarif,
                 OutputFormat::github, OutputFormat::gitlab, OutputFormat::junit})
    CHECK(parse_output_format(output_format_name(f)) == f);
  CHECK_FALSE(parse_output_format("xml"));
  CHECK_FALSE(parse_output_format(""));
}

TEST_CASE("human output, clang style", "[render]") {
  CHECK(render(OutputFormat::human) ==
        "agents/triage.json:3:13: error[WS010]: no ai-tool named 'Lookup'\n"
        "  \"tools\": [\"Lookup\"]\n"
        "            ^~~~~~~~\n"
        "ai-tools/lookup.cs:1:10: note: did you mean 'Lokup'?\n"
        "// name: Lokup\n"
        "         ^~~~~\n"
        "endpoints/get.cs:3:6: warning[WS014]: local 'Agents' shadows the symbol root 'Agents'\n"
        "\tvar Agents = 1;\n"
        "\t    ^~~~~~\n"
        "misc/notes.txt: error[WS005]: file is in no kind's folder\n"
        "note: move it under a kind's folder\n"
        "prompts/a,b:c.md:1:1: error[WS001]: front matter does not start with '---'\n"
        "3 errors, 1 warning in 4 files (4 files changed)\n");
}

TEST_CASE("human output in colour", "[render]") {
  std::string out = render(OutputFormat::human, true);
  CHECK(out.rfind(
            "\x1b[1magents/triage.json:3:13:\x1b[0m \x1b[1;31merror[WS010]\x1b[0m: "
            "no ai-tool named 'Lookup'\n"
            "  \"tools\": [\"Lookup\"]\n"
            "            \x1b[1;32m^~~~~~~~\x1b[0m\n"
            "\x1b[1mai-tools/lookup.cs:1:10:\x1b[0m \x1b[1;36mnote\x1b[0m: did you mean 'Lokup'?\n",
            0) == 0);
  CHECK(out.find("\x1b[1mendpoints/get.cs:3:6:\x1b[0m \x1b[1;35mwarning[WS014]\x1b[0m: ") !=
        std::string::npos);
  CHECK(out.find("\n\x1b[1;36mnote\x1b[0m: move it") != std::string::npos);
  // The summary line stays plain.
  CHECK(out.size() > 50);
  CHECK(out.substr(out.size() - 49) == "3 errors, 1 warning in 4 files (4 files changed)\n");
}

TEST_CASE("no colour byte unless asked, and only in human output", "[render]") {
  for (auto f : {OutputFormat::human, OutputFormat::json, OutputFormat::sarif,
                 OutputFormat::github, OutputFormat::gitlab, OutputFormat::junit}) {
    INFO(output_format_name(f));
    CHECK(render(f, false).find('\x1b') == std::string::npos);
    if (f != OutputFormat::human) CHECK(render(f, true).find('\x1b') == std::string::npos);
  }
}

TEST_CASE("human quotes: escapes, wide prefixes, odd spans, unknown source", "[render]") {
  Files files{{"a.cs",
               "a\x1b" "b = X\n"          // a control byte before the span
               "\xc3\xa9 = Agents.Foo\n"  // a two-byte character before the span
               "{\n"
               "  \"a\": [\n"
               "\tx =\ty\n"}};
  std::vector<Diagnostic> ds{
      make_diag(DiagCode::unresolved_reference, "a.cs", span(1, 7, 1, 8), "bad \x1b[31m name"),
      make_diag(DiagCode::unresolved_reference, "a.cs", span(2, 6, 2, 16), "utf-8 prefix"),
      make_diag(DiagCode::syntax_error, "a.cs", span(3, 2, 3, 2), "past the end"),
      make_diag(DiagCode::syntax_error, "a.cs", span(4, 3, 6, 1), "multi-line"),
      make_diag(DiagCode::syntax_error, "a.cs", span(5, 2, 5, 7), "tab inside"),
      make_diag(DiagCode::syntax_error, "b.cs", span(1, 1, 1, 2), "no source"),
      make_diag(DiagCode::syntax_error, "a.cs", span(99, 1, 99, 2), "no such line"),
  };
  BuildSummary s = tally(ds, {1, 1});
  CHECK(render(OutputFormat::human, ds, s, options(files)) ==
        "a.cs:1:7: error[WS010]: bad \\x1b[31m name\n"
        "a\\x1bb = X\n"
        "         ^\n"
        "a.cs:2:6: error[WS010]: utf-8 prefix\n"
        "\xc3\xa9 = Agents.Foo\n"
        "    ^~~~~~~~~~\n"
        "a.cs:3:2: error[WS001]: past the end\n"
        "{\n"
        " ^\n"
        "a.cs:4:3: error[WS001]: multi-line\n"
        "  \"a\": [\n"
        "  ^~~~~~\n"
        "a.cs:5:2: error[WS001]: tab inside\n"
        "\tx =\ty\n"
        "\t^~~\t~\n"
        "b.cs:1:1: error[WS001]: no source\n"
        "a.cs:99:1: error[WS001]: no such line\n"
        "7 errors in 2 files (1 file changed)\n");
}

// The caret stands under the character it points at as a terminal draws
// the line: a CJK character or an emoji takes two cells, a combining mark or
// a zero-width space none.
TEST_CASE("human quotes: the caret counts display cells", "[render][caret]") {
  Files files{{"a.cs",
               "\xe5\x90\x8d\xe5\x89\x8d = Agents.Foo\n"     // two CJK characters before the span
               "  \"name\": \"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\",\n"  // the span is CJK
               "\xf0\x9f\x98\x80 x \xf0\x9f\x9a\x80!\n"      // emoji before and inside the span
               "e\xcc\x81tat = Bad\n"                 // e + combining acute, before and inside
               "a\xe2\x80\x8b" "b = X\n"                // a zero-width space before the span
               "\xef\xbc\xa1\x1b\xef\xbc\xa2 = Y\n"}};   // fullwidth letters around an escape
  std::vector<Diagnostic> ds{
      make_diag(DiagCode::unresolved_reference, "a.cs", span(1, 10, 1, 20), "cjk prefix"),
      make_diag(DiagCode::unresolved_reference, "a.cs", span(2, 12, 2, 21), "cjk span"),
      make_diag(DiagCode::unresolved_reference, "a.cs", span(3, 6, 3, 13), "emoji"),
      make_diag(DiagCode::unresolved_reference, "a.cs", span(4, 1, 4, 7), "combining span"),
      make_diag(DiagCode::unresolved_reference, "a.cs", span(4, 10, 4, 13), "combining prefix"),
      make_diag(DiagCode::unresolved_reference, "a.cs", span(5, 9, 5, 10), "zero width"),
      make_diag(DiagCode::unresolved_reference, "a.cs", span(6, 4, 6, 8), "fullwidth and escape"),
  };
  CHECK(render(OutputFormat::human, ds, tally(ds, {1, 1}), options(files)) ==
        "a.cs:1:10: error[WS010]: cjk prefix\n"
        "\xe5\x90\x8d\xe5\x89\x8d = Agents.Foo\n"
        "       ^~~~~~~~~~\n"
        "a.cs:2:12: error[WS010]: cjk span\n"
        "  \"name\": \"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\",\n"
        "           ^~~~~~\n"
        "a.cs:3:6: error[WS010]: emoji\n"
        "\xf0\x9f\x98\x80 x \xf0\x9f\x9a\x80!\n"
        "   ^~~~~\n"
        "a.cs:4:1: error[WS010]: combining span\n"
        "e\xcc\x81tat = Bad\n"
        "^~~~\n"
        "a.cs:4:10: error[WS010]: combining prefix\n"
        "e\xcc\x81tat = Bad\n"
        "       ^~~\n"
        "a.cs:5:9: error[WS010]: zero width\n"
        "a\xe2\x80\x8b" "b = X\n"
        "     ^\n"
        "a.cs:6:4: error[WS010]: fullwidth and escape\n"
        "\xef\xbc\xa1\\x1b\xef\xbc\xa2 = Y\n"
        "  ^~~~~~\n"
        "7 errors in 1 file (1 file changed)\n");
}

TEST_CASE("json output: JSON Lines, a diagnostic record each, then the summary", "[render]") {
  std::string out = render(OutputFormat::json);
  CHECK(out ==
        R"j({"type":"diagnostic","version":1,"code":"WS010","severity":"error","path":"agents/triage.json","line":3,)j"
        R"j("column":13,"end_line":3,"end_column":21,"message":"no ai-tool named 'Lookup'","notes":[{"path":)j"
        R"j("ai-tools/lookup.cs","line":1,"column":10,"end_line":1,"end_column":15,"message":"did you mean 'Lokup'?"}]})j"
        "\n"
        R"j({"type":"diagnostic","version":1,"code":"WS014","severity":"warning","path":"endpoints/get.cs","line":3,)j"
        R"j("column":6,"end_line":3,"end_column":12,"message":"local 'Agents' shadows the symbol root 'Agents'",)j"
        R"j("notes":[]})j"
        "\n"
        R"j({"type":"diagnostic","version":1,"code":"WS005","severity":"error","path":"misc/notes.txt","line":null,)j"
        R"j("column":null,"end_line":null,"end_column":null,"message":"file is in no kind's folder","notes":[{"path":)j"
        R"j(null,"line":null,"column":null,"end_line":null,"end_column":null,"message":"move it under a kind's )j"
        R"j(folder"}]})j"
        "\n"
        R"j({"type":"diagnostic","version":1,"code":"WS001","severity":"error","path":"prompts/a,b:c.md","line":1,)j"
        R"j("column":1,"end_line":1,"end_column":4,"message":"front matter does not start with '---'","notes":[]})j"
        "\n"
        R"j({"type":"summary","version":1,"files_changed":4,"files_checked":4,"errors":3,"warnings":1,)j"
        R"j("files_with_errors":4,"all":false,"clean":false,"text":"3 errors, 1 warning in 4 files (4 files changed)",)j"
        R"j("tool":{"name":"ws-build","version":"0.1.0"}})j"
        "\n");
}

TEST_CASE("json output of nothing, and of text that is not UTF-8", "[render]") {
  BuildSummary clean;
  clean.files_changed = 1;
  // Nothing to report: the summary record alone.
  const std::string nothing = render(OutputFormat::json, {}, clean, options({}));
  REQUIRE(std::count(nothing.begin(), nothing.end(), '\n') == 1);
  auto empty = nlohmann::json::parse(nothing);
  CHECK(empty["type"] == "summary");
  CHECK(empty["text"] == "1 file changed, compiled clean.");
  CHECK(empty["clean"] == true);

  std::vector<Diagnostic> ds{make_file_diag(DiagCode::bad_encoding, "p/\xff.json", "bad \xc3")};
  std::string out;
  REQUIRE_NOTHROW(out = render(OutputFormat::json, ds, tally(ds), options({})));
  auto doc = nlohmann::json::parse(out.substr(0, out.find('\n')));
  CHECK(doc["type"] == "diagnostic");
  CHECK(doc["path"] == "p/\xef\xbf\xbd.json");
  REQUIRE_NOTHROW(render(OutputFormat::gitlab, ds, tally(ds), options({})));
  REQUIRE_NOTHROW(render(OutputFormat::sarif, ds, tally(ds), options({})));
}

TEST_CASE("github workflow commands", "[render]") {
  CHECK(render(OutputFormat::github) ==
        "::error file=agents/triage.json,line=3,col=13,endLine=3,endColumn=20,title=WS010::"
        "no ai-tool named 'Lookup'%0Aai-tools/lookup.cs:1:10: note: did you mean 'Lokup'?\n"
        "::warning file=endpoints/get.cs,line=3,col=6,endLine=3,endColumn=11,title=WS014::"
        "local 'Agents' shadows the symbol root 'Agents'\n"
        "::error file=misc/notes.txt,title=WS005::file is in no kind's folder"
        "%0Anote: move it under a kind's folder\n"
        "::error file=prompts/a%2Cb%3Ac.md,line=1,col=1,endLine=1,endColumn=3,title=WS001::"
        "front matter does not start with '---'\n"
        "3 errors, 1 warning in 4 files (4 files changed)\n");
}

TEST_CASE("github escaping and multi-line spans", "[render]") {
  auto d = make_diag(DiagCode::syntax_error, "x/100%,a:b.json", span(2, 3, 4, 1),
                     "100% done\r\nnext: a,b");
  Diagnostic n = make_file_diag(DiagCode::shadowed_root, "", "no path");
  n.severity = Severity::note;
  auto eol = make_diag(DiagCode::syntax_error, "a.json", span(5, 3, 6, 1), "to end of line");
  auto lines = make_diag(DiagCode::syntax_error, "a.json", span(7, 3, 9, 1), "two lines");
  std::vector<Diagnostic> ds{d, n, eol, lines};
  CHECK(render(OutputFormat::github, ds, tally(ds, {1, 1}), options({})) ==
        "::error file=x/100%25%2Ca%3Ab.json,line=2,endLine=3,title=WS001::"
        "100%25 done\\r\\nnext: a,b\n"
        "::notice title=WS014::no path\n"
        "::error file=a.json,line=5,col=3,title=WS001::to end of line\n"
        "::error file=a.json,line=7,endLine=8,title=WS001::two lines\n"
        "3 errors in 2 files (1 file changed)\n");
}

// A hostile path or message tries to end the workflow command and start
// another (add-mask, set-output, stop-commands), or to reach the log raw
// (ESC, OSC, BEL, C1 CSI, a bidi override): each is spelt as ws(7) spells it
// for a terminal, then escaped for the runner, so every output line is one
// command and holds no control byte.
TEST_CASE("github annotations: hostile text starts no command and no control reaches the log", "[render][github]") {
  auto d = make_diag(DiagCode::syntax_error, "a\n::add-mask::x\x1b[2J,b.json", span(1, 1, 1, 2),
                     "bad\n::set-output name=x::y\r::stop-commands::t \x1b]0;t\x07 \xc2\x9b \xe2\x80\xae%0A");
  d.notes.push_back(Note{"n\r\n::error::forged.cs", span(2, 3, 2, 4), true, "see\x1b[1A\x1b[2K here"});
  std::vector<Diagnostic> ds{d};
  BuildSummary s = tally(ds, {1, 1});
  s.all_reason = "kinds changed\n::warning::forged";
  std::string out = render(OutputFormat::github, ds, s, options({}));
  CHECK(out ==
        "::error file=a\\n%3A%3Aadd-mask%3A%3Ax\\x1b[2J%2Cb.json,line=1,col=1,endLine=1,endColumn=1,title=WS001::"
        "bad\\n::set-output name=x::y\\r::stop-commands::t \\x1b]0;t\\x07 \\u009b \\u202e%250A"
        "%0An\\r\\n::error::forged.cs:2:3: note: see\\x1b[1A\\x1b[2K here\n"
        "::notice::kinds changed\\n::warning::forged\n"
        "1 error in 1 file (1 file changed)\n");
  // Three lines, each one command or the summary; no byte below 0x20 but
  // the line feeds, no DEL, no C1 control.
  CHECK(std::count(out.begin(), out.end(), '\n') == 3);
  CHECK(std::none_of(out.begin(), out.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\n'; }));
  CHECK(out.find("\xc2\x9b") == std::string::npos);
  CHECK(out.find('\x7f') == std::string::npos);
}

TEST_CASE("gitlab code quality report", "[render]") {
  std::string out = render(OutputFormat::gitlab);
  auto doc = nlohmann::json::parse(out);
  REQUIRE(doc.is_array());
  REQUIRE(doc.size() == 4);
  // FNV-1a 64 of "WS010\0agents/triage.json\0" "3\0no ai-tool named 'Lookup'",
  // computed independently (Python) so the hash, not just its stability, is pinned.
  CHECK(doc[0] == nlohmann::json::parse(R"({
    "description": "no ai-tool named 'Lookup'; ai-tools/lookup.cs:1:10: note: did you mean 'Lokup'?",
    "check_name": "WS010", "fingerprint": "39c7cab9bb0d8797", "severity": "major",
    "location": {"path": "agents/triage.json", "lines": {"begin": 3}}})"));
  CHECK(doc[1]["severity"] == "minor");
  CHECK(doc[1]["location"]["lines"]["begin"] == 3);
  CHECK(doc[2]["location"] == nlohmann::json::parse(R"({"path": "misc/notes.txt",
                                                        "lines": {"begin": 1}})"));
  CHECK(doc[2]["description"] == "file is in no kind's folder; note: move it under a kind's folder");
  CHECK(doc[3]["location"]["path"] == "prompts/a,b:c.md");
  CHECK(out.substr(0, 6) == "[\n  {\n");
  CHECK(out.back() == '\n');
  CHECK(render(OutputFormat::gitlab) == out);  // deterministic

  std::set<std::string> fingerprints;
  for (const auto& issue : doc) fingerprints.insert(issue["fingerprint"].get<std::string>());
  CHECK(fingerprints.size() == 4);
}

TEST_CASE("gitlab fingerprints: repeats stay distinct, empty report is []", "[render]") {
  auto d = make_diag(DiagCode::syntax_error, "a.json", span(1, 1, 1, 2), "x");
  std::vector<Diagnostic> ds{d, d};
  auto doc = nlohmann::json::parse(render(OutputFormat::gitlab, ds, tally(ds), options({})));
  CHECK(doc[0]["fingerprint"] != doc[1]["fingerprint"]);
  std::vector<Diagnostic> one{d};
  auto single = nlohmann::json::parse(render(OutputFormat::gitlab, one, tally(one), options({})));
  CHECK(single[0]["fingerprint"] == doc[0]["fingerprint"]);
  CHECK(render(OutputFormat::gitlab, {}, {}, options({})) == "[]\n");
}
