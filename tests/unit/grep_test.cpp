// ws-grep's matcher, line selection, structure filters and output, on memory views.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>

#include "libcheck/grep.h"
#include "libcheck/kinds.h"
#include "support/memory_content.h"

using ws::ChangeStatus;
using ws::GrepMode;
using ws::GrepOptions;
using namespace std::string_literals;

namespace {

const ws::KindPack& pack() { return wstest::default_kind_pack(); }

ws::Matcher compile(GrepOptions o) {
  auto m = ws::Matcher::compile(o);
  REQUIRE(m.ok());
  return std::move(m).value();
}

GrepOptions pattern(std::string p) {
  GrepOptions o;
  o.patterns = {std::move(p)};
  return o;
}

// The lines select_lines picks, as "line:match|match" strings.
std::vector<std::string> selected(const GrepOptions& o, std::string_view text, ws::SelectOptions so = {}) {
  ws::Matcher m = compile(o);
  so.invert = so.invert || o.invert;
  ws::FileHits h = ws::select_lines(m, text, so);
  std::vector<std::string> out;
  for (const auto& hit : h.hits) {
    std::string s = std::to_string(hit.line) + (hit.counted ? ":" : "+");
    for (std::uint32_t i = 0; i < hit.span_count; ++i) {
      const auto& sp = h.spans[hit.span_begin + i];
      s += (i ? "|" : "") + std::string(text.substr(sp.start, sp.end - sp.start));
    }
    out.push_back(s);
  }
  return out;
}

struct Grep {
  std::string out;
  ws::GrepSummary summary;
};

Grep grep(const ws::View& view, GrepOptions o) {
  std::ostringstream os;
  auto r = ws::grep_view(view, pack(), o, os);
  REQUIRE(r.ok());
  return {os.str(), std::move(r).value()};
}

// A content source that refuses, and remembers, any read of a secret.
class Watching final : public ws::ContentSource {
 public:
  explicit Watching(std::shared_ptr<const ws::ContentSource> inner) : inner_(std::move(inner)) {}
  mutable std::set<std::string> read_paths;
  ws::Result<std::string> read(const ws::ViewEntry& e) const override {
    read_paths.insert(e.path);
    return inner_->read(e);
  }
  ws::Result<std::string> read_blob(const std::string& id) const override { return inner_->read_blob(id); }
  std::optional<std::uint64_t> size_of(const ws::ViewEntry& e) const override { return inner_->size_of(e); }

 private:
  std::shared_ptr<const ws::ContentSource> inner_;
};

const char* kCode =
    "// name: Probe\n"
    "// description: mentions Agents.Triage in a comment\n"
    "var s = \"Agents.Triage\";  // Agents.Triage again\n"
    "var r = await Agents.Triage.Run(s);\n";

}  // namespace

TEST_CASE("a bad pattern is one usage error naming the pattern and RE2's words", "[grep]") {
  auto m = ws::Matcher::compile(pattern("(a"));
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().code == ws::Errc::usage);
  CHECK(m.error().message == "invalid pattern '(a': missing ): (a");
  GrepOptions two;
  two.patterns = {"ok", "x**"};
  auto m2 = ws::Matcher::compile(two);
  REQUIRE_FALSE(m2.ok());
  CHECK(m2.error().message == "invalid pattern 'x**': bad repetition operator: **");
  // -F quotes the pattern: the same text is then fine.
  GrepOptions f = pattern("(a");
  f.fixed_strings = true;
  CHECK(ws::Matcher::compile(f).ok());
}

TEST_CASE("flags: -F, -i, -w and several patterns", "[grep]") {
  std::string text = "a.b axb\nFOO foo_bar foo-bar\nbar\n";
  CHECK(selected(pattern("a.b"), text) == std::vector<std::string>{"1:a.b|axb"});
  GrepOptions f = pattern("a.b");
  f.fixed_strings = true;
  CHECK(selected(f, text) == std::vector<std::string>{"1:a.b"});
  GrepOptions i = pattern("foo");
  i.ignore_case = true;
  CHECK(selected(i, text) == std::vector<std::string>{"2:FOO|foo|foo"});
  GrepOptions w = pattern("foo");
  w.word = true;
  CHECK(selected(w, text) == std::vector<std::string>{"2:foo"});  // not foo_bar
  GrepOptions wi = w;
  wi.ignore_case = true;
  CHECK(selected(wi, text) == std::vector<std::string>{"2:FOO|foo"});
  GrepOptions several;
  several.patterns = {"axb", "^bar$"};
  CHECK(selected(several, text) == std::vector<std::string>{"1:axb", "3:bar"});
  // A pattern with a newline is one pattern per line, as with grep.
  CHECK(selected(pattern("axb\n^bar"), text) == std::vector<std::string>{"1:axb", "3:bar"});
}

TEST_CASE("a match never spans lines, and ^ $ are line anchors", "[grep]") {
  std::string text = "a\nb\nab\n";
  CHECK(selected(pattern("a\\sb"), text).empty());
  CHECK(selected(pattern("a[^x]*b"), text) == std::vector<std::string>{"3:ab"});
  CHECK(selected(pattern("^b$"), text) == std::vector<std::string>{"2:b"});
  // An empty match selects each line, never a phantom line after the last newline.
  CHECK(selected(pattern("x*"), text).size() == 3);
  CHECK(selected(pattern("x*"), "").empty());
  CHECK(selected(pattern("b$"), "a\nab") == std::vector<std::string>{"2:b"});  // no final newline
}

TEST_CASE("option -v selects the lines without a match, -m caps selected lines per file", "[grep]") {
  std::string text = "one foo\ntwo\nthree foo\nfour\n";
  GrepOptions v = pattern("foo");
  v.invert = true;
  CHECK(selected(v, text) == std::vector<std::string>{"2:", "4:"});
  ws::SelectOptions m1;
  m1.max_count = 1;
  CHECK(selected(pattern("foo"), text, m1) == std::vector<std::string>{"1:foo"});
  // Past -m, a matching line inside the trailing context is shown but not counted (rg 13).
  m1.after = 2;
  CHECK(selected(pattern("foo"), text, m1) == std::vector<std::string>{"1:foo", "3+foo"});
  ws::SelectOptions m0;
  m0.max_count = 0;
  CHECK(selected(pattern("foo"), text, m0).empty());
}

TEST_CASE("a pathological pattern runs in linear time", "[grep]") {
  std::string text(100000, 'a');
  text += "\n";
  CHECK(selected(pattern("(a*)*b"), text).empty());
  CHECK(selected(pattern("(a|aa)*c"), text).empty());
  CHECK(selected(pattern("(a*)*$"), text).size() == 1);
}

TEST_CASE("output: lines, --column, -o, -c, -l, -N and -z as rg prints them", "[grep]") {
  ws::View v = wstest::memory_view({
      {"agents/a.json", ChangeStatus::unchanged, "{\n  \"name\": \"Alpha\",\n  \"description\": \"alpha alpha\"\n}\n"},
      {"agents/b.json", ChangeStatus::unchanged, "{\n  \"name\": \"Beta\"\n}"},
  });
  GrepOptions o = pattern("(?i)alpha|Beta");
  CHECK(grep(v, o).out ==
        "agents/a.json:2:  \"name\": \"Alpha\",\n"
        "agents/a.json:3:  \"description\": \"alpha alpha\"\n"
        "agents/b.json:2:  \"name\": \"Beta\"\n");
  o.column = true;
  o.line_number = false;
  CHECK(grep(v, o).out ==
        "agents/a.json:12:  \"name\": \"Alpha\",\n"
        "agents/a.json:19:  \"description\": \"alpha alpha\"\n"
        "agents/b.json:12:  \"name\": \"Beta\"\n");
  o = pattern("alpha");
  o.mode = GrepMode::only_matching;
  o.ignore_case = true;
  CHECK(grep(v, o).out == "agents/a.json:2:Alpha\nagents/a.json:3:alpha\nagents/a.json:3:alpha\n");
  o.mode = GrepMode::count;
  CHECK(grep(v, o).out == "agents/a.json:2\n");
  o.count_matches = true;
  CHECK(grep(v, o).out == "agents/a.json:3\n");
  o = pattern("name");
  o.mode = GrepMode::files;
  o.nul = true;
  CHECK(grep(v, o).out == "agents/a.json\0agents/b.json\0"s);
  o.mode = GrepMode::lines;
  CHECK(grep(v, o).out == "agents/a.json\0" "2:  \"name\": \"Alpha\",\nagents/b.json\0" "2:  \"name\": \"Beta\"\n"s);
}

TEST_CASE("context: rg's '-' lines and '--' between groups and files", "[grep]") {
  std::string text = "1\nfoo 2\n3\n4\n5\n6\nfoo 7\nfoo 8\n9";
  ws::View v = wstest::memory_view({
      {"a.txt", ChangeStatus::unchanged, text},
      {"b.txt", ChangeStatus::unchanged, "x\nfoo\n"},
  });
  GrepOptions o = pattern("foo");
  o.before = o.after = 1;
  CHECK(grep(v, o).out ==
        "a.txt-1-1\na.txt:2:foo 2\na.txt-3-3\n--\n"
        "a.txt-6-6\na.txt:7:foo 7\na.txt:8:foo 8\na.txt-9-9\n--\n"
        "b.txt-1-x\nb.txt:2:foo\n");
  o.before = 0;
  o.after = 3;  // a gap of one line is still a gap
  CHECK(grep(v, o).out ==
        "a.txt:2:foo 2\na.txt-3-3\na.txt-4-4\na.txt-5-5\n--\na.txt:7:foo 7\na.txt:8:foo 8\na.txt-9-9\n--\n"
        "b.txt:2:foo\n");
  o.after = 4;  // adjacent windows join without a separator
  CHECK(grep(v, o).out ==
        "a.txt:2:foo 2\na.txt-3-3\na.txt-4-4\na.txt-5-5\na.txt-6-6\na.txt:7:foo 7\na.txt:8:foo 8\na.txt-9-9\n--\n"
        "b.txt:2:foo\n");
  o.after = 0;
  o.before = 0;
  o.max_count = 1;
  o.after = 1;
  CHECK(grep(v, o).out == "a.txt:2:foo 2\na.txt-3-3\n--\nb.txt:2:foo\n");
}

TEST_CASE("colour uses ripgrep's escapes and highlights each match", "[grep]") {
  ws::View v = wstest::memory_view({{"p.md", ChangeStatus::unchanged, "a foo b foo\n"}});
  GrepOptions o = pattern("foo");
  o.color = true;
  o.column = true;
  CHECK(grep(v, o).out ==
        "\x1b[0m\x1b[35mp.md\x1b[0m:\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m3\x1b[0m:a \x1b[0m\x1b[1m\x1b[31mfoo\x1b[0m b "
        "\x1b[0m\x1b[1m\x1b[31mfoo\x1b[0m\n");
}

TEST_CASE("option --max caps the results and says how many more there were", "[grep]") {
  ws::View v = wstest::memory_view({
      {"a.txt", ChangeStatus::unchanged, "x\nx\n"},
      {"b.txt", ChangeStatus::unchanged, "x\n"},
  });
  GrepOptions o = pattern("x");
  o.max = 1;
  auto r = grep(v, o);
  CHECK(r.out == "a.txt:1:x\nGrep-Truncated: 2 more results (raise --max)\n");
  CHECK(r.summary.results == 3);
  CHECK(r.summary.omitted == 2);
  o.max = 2;
  CHECK(grep(v, o).out == "a.txt:1:x\na.txt:2:x\nGrep-Truncated: 1 more result (raise --max)\n");
  o.max = 3;
  CHECK(grep(v, o).out == "a.txt:1:x\na.txt:2:x\nb.txt:1:x\n");
}

TEST_CASE("JSON Lines: one record per match with kind, name, offsets, a summary last", "[grep]") {
  ws::View v = wstest::memory_view({{"agents/a.json", ChangeStatus::unchanged, "{\n  \"name\": \"Alpha\"\n}\n"}});
  GrepOptions o = pattern("Al");
  o.json = true;
  auto r = grep(v, o);
  CHECK(r.out ==
        "{\"type\":\"match\",\"version\":1,\"path\":\"agents/a.json\",\"kind\":\"agent\",\"name\":\"Alpha\",\"line\":2,"
        "\"column\":12,\"start\":13,\"end\":15,\"text\":\"  \\\"name\\\": \\\"Alpha\\\"\",\"match\":\"Al\"}\n"
        "{\"type\":\"summary\",\"version\":1,\"files_searched\":1,\"files_matched\":1,\"results\":1,\"omitted\":0,"
        "\"binary_skipped\":0,\"links_skipped\":0,\"errors\":0}\n");
}

TEST_CASE("option --in counts a match only inside the syntax classes asked for", "[grep]") {
  ws::View v = wstest::memory_view({{"endpoints/probe.cs", ChangeStatus::unchanged, kCode}});
  GrepOptions o = pattern("Agents\\.Triage");
  o.mode = GrepMode::only_matching;
  o.column = true;
  o.in = {ws::SyntaxClass::code};
  CHECK(grep(v, o).out == "endpoints/probe.cs:4:15:Agents.Triage\n");
  o.in = {ws::SyntaxClass::comment};
  CHECK(grep(v, o).out == "endpoints/probe.cs:2:26:Agents.Triage\nendpoints/probe.cs:3:30:Agents.Triage\n");
  o.in = {ws::SyntaxClass::string};
  CHECK(grep(v, o).out == "endpoints/probe.cs:3:10:Agents.Triage\n");
  o.in = {ws::SyntaxClass::string, ws::SyntaxClass::code};
  CHECK(grep(v, o).out == "endpoints/probe.cs:3:10:Agents.Triage\nendpoints/probe.cs:4:15:Agents.Triage\n");
}

TEST_CASE("option --ref finds code and JSON references, not look-alikes in strings or comments", "[grep]") {
  ws::View v = wstest::memory_view({
      {"access/grants/g.json", ChangeStatus::unchanged,
       "{\n  \"name\": \"g\",\n  \"group\": \"Staff\",\n  \"agents\": [\"Triage\"]\n}\n"},
      {"agents/t.json", ChangeStatus::unchanged, "{\n  \"name\": \"Triage\",\n  \"description\": \"Agents.Triage\"\n}\n"},
      {"endpoints/probe.cs", ChangeStatus::unchanged, kCode},
  });
  GrepOptions o;
  o.ref = {"Agents.Triage"};
  auto r = grep(v, o);
  CHECK(r.out ==
        "access/grants/g.json:4:15:  \"agents\": [\"Triage\"]\n"
        "endpoints/probe.cs:4:15:var r = await Agents.Triage.Run(s);\n");
  o.ref.clear();
  o.defines = {"Agents.Triage"};
  CHECK(grep(v, o).out == "agents/t.json:2:12:  \"name\": \"Triage\",\n");
  o.defines = {"Agents.Nobody"};
  CHECK(grep(v, o).out.empty());
}

TEST_CASE("secrets are never read, deleted, binary and link entries are not searched", "[grep]") {
  ws::View base = wstest::memory_view({
      {".secrets/Key", ChangeStatus::unchanged, "canary-123\n"},
      {"agents/bin.json", ChangeStatus::unchanged, std::string("canary\0x\n", 9)},
      {"agents/gone.json", ChangeStatus::deleted, "", "canary-gone\n"},
      {"agents/new.json", ChangeStatus::added, "canary-new\n"},
  });
  auto watch = std::make_shared<Watching>(base.content_ptr());
  std::vector<ws::ViewEntry> entries = base.entries();
  ws::ViewEntry link;
  link.path = "agents/link.json";
  link.mode = ws::kModeLink;
  entries.push_back(link);
  ws::View v(entries, watch, "");
  auto r = grep(v, pattern("canary"));
  CHECK(r.out == "agents/new.json:1:canary-new\n");
  CHECK(watch->read_paths == std::set<std::string>{"agents/bin.json", "agents/new.json"});
  CHECK(r.summary.binary_skipped == std::vector<std::string>{"agents/bin.json"});
  CHECK(r.summary.links_skipped == std::vector<std::string>{"agents/link.json"});
  CHECK(r.summary.secrets_skipped == 1);
  GrepOptions k = pattern("x");
  k.kinds = {"secret"};
  std::ostringstream os;
  auto refused = ws::grep_view(v, pack(), k, os);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "kind 'secret' is never searched: its content is never opened");
}

TEST_CASE("usage errors: unknown kind, bad symbol, nothing to search for", "[grep]") {
  ws::View v = wstest::memory_view({});
  std::ostringstream os;
  GrepOptions o = pattern("x");
  o.kinds = {"agnet"};
  auto r = ws::grep_view(v, pack(), o, os);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.rfind("unknown kind 'agnet'; known kinds: ", 0) == 0);
  GrepOptions s;
  s.ref = {"Agents"};
  auto bad = ws::grep_view(v, pack(), s, os);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message ==
        "invalid symbol 'Agents': write Root.Name or Root.Name.Member, e.g. 'Agents.Triage' or 'N.Ticket.Status'");
  auto none = ws::grep_view(v, pack(), GrepOptions{}, os);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().code == ws::Errc::usage);
}
