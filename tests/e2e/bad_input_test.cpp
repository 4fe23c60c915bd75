// The bad-input corpus (issue 8): empty and huge files, deep nesting, bad
// encodings, line-ending and BOM variants, lone surrogates, very long names
// and paths, a folder of 50,000 definitions, file names with newlines and
// quotes. Each goes through the real ws-build, ws-ls and ws-grep; each must
// give one clear diagnostic line per problem, naming the path, with the
// right exit status, in bounded time (the runner's timeout) and bounded
// memory (an address-space cap set with prlimit from util-linux). The large
// inputs are generated here, at test time; nothing big is committed.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;
namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
#define WS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_TEST_ASAN 1
#endif
#endif

namespace {

// Address space a tool may use: the measured need of the tools on these
// inputs is under 100 MiB plus a thread stack per core; reading a 100 MiB
// file whole, or a copy of it, would not fit.
std::uint64_t address_space_cap() {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return (256ull + 16ull * cores) << 20;
}

// Runs a tool the way wstest::ws does, but under `prlimit --as` (except in
// the ASan build, whose shadow memory needs terabytes of address space).
RunResult bounded(const TempRepo& repo, const std::string& tool, const std::vector<std::string>& args,
                  int timeout_seconds = 120) {
  std::vector<std::string> argv;
#ifndef WS_TEST_ASAN
  static const bool have_prlimit = wstest::run({"prlimit", "--version"}).status == 0;
  if (have_prlimit) {
    argv = {"prlimit", "--as=" + std::to_string(address_space_cap()), "--"};
  } else {
    static bool warned = false;
    if (!warned) WARN("prlimit (util-linux) not found: the address-space cap is not applied");
    warned = true;
  }
#else
  static bool warned = false;
  if (!warned) {
    WARN("ASan build: the address-space cap is not applied (ASan reserves terabytes); the normal build checks it");
    warned = true;
  }
#endif
  argv.push_back(wstest::tool(tool));
  argv.insert(argv.end(), args.begin(), args.end());
  wstest::RunOptions o;
  o.cwd = repo.path();
  o.timeout_seconds = timeout_seconds;
  o.unset_env = {"NO_COLOR", "WS_SESSION", "CLICOLOR_FORCE", "GIT_DIR", "GIT_OBJECT_DIRECTORY",
                 "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_WORK_TREE", "GIT_INDEX_FILE"};
  // Bounds glibc's per-thread heaps, so the cap measures the program, not the core count.
  o.env = {{"WS_KINDS_DIR", std::string(WS_SOURCE_DIR) + "/schemas/kinds"}, {"MALLOC_ARENA_MAX", "2"}};
  RunResult r = wstest::run(argv, o);
  INFO(tool << " exited " << r.status << "; stderr: " << r.err.substr(0, 2000));
  CHECK_FALSE(r.timed_out);
  CHECK(r.status < 128);  // not killed by a signal (abort on bad_alloc, a crash)
  CHECK(r.err.find("bad_alloc") == std::string::npos);
  CHECK(r.err.find("terminate called") == std::string::npos);
  return r;
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& l : lines(text))
    if (l.rfind(prefix, 0) == 0) out.push_back(l);
  return out;
}

// Diagnostic lines ("path:line:col: error[WSnnn]: ..." or "path: error[WSnnn]: ...") of a human report.
std::vector<std::string> diagnostic_lines(const std::string& out) {
  std::vector<std::string> d;
  for (const auto& l : lines(out))
    if (l.find(": error[WS") != std::string::npos || l.find(": warning[WS") != std::string::npos) d.push_back(l);
  return d;
}

void write_bytes(const TempRepo& repo, const std::string& rel, const std::string& bytes) { repo.write(rel, bytes); }

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

const char* kAgent = "{\n  \"name\": \"Alpha\"\n}\n";

void seed(const TempRepo& repo) {
  repo.write("agents/AGalpha.json", kAgent);
  repo.commit_all("seed");
}

}  // namespace

TEST_CASE("bad input: empty files are diagnosed at 1:1, one line each", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  for (const char* p : {"agents/AGempty.json", "ai-tools/TLempty.cs", "endpoints/EPempty.cs", "prompts/PRempty.md",
                        "skills/SKempty.md", "node-types/NTempty.json"})
    repo.write(p, "");
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(b.err == "");
  CHECK(diagnostic_lines(b.out) ==
        std::vector<std::string>{
            "agents/AGempty.json:1:1: error[WS001]: syntax error: the file is empty; expected a JSON object",
            "ai-tools/TLempty.cs:1:1: error[WS007]: missing name: the file has no '// name: ...' header line",
            // An empty endpoint also lacks the two other required header fields.
            "endpoints/EPempty.cs:1:1: error[WS006]: missing required field 'method'",
            "endpoints/EPempty.cs:1:1: error[WS006]: missing required field 'route'",
            "endpoints/EPempty.cs:1:1: error[WS007]: missing name: the file has no '// name: ...' header line",
            "node-types/NTempty.json:1:1: error[WS001]: syntax error: the file is empty; expected a JSON object",
            "prompts/PRempty.md:1:1: error[WS007]: missing name: a prompt needs a front matter block at the top "
            "of the file: a '---' line, 'name: ...', and a closing '---' line",
            "skills/SKempty.md:1:1: error[WS007]: missing name: a skill needs a front matter block at the top "
            "of the file: a '---' line, 'name: ...', and a closing '---' line",
        });
  CHECK(lines(b.out).back() == "8 errors in 6 files (6 files changed)");

  auto ls = bounded(repo, "ws-ls", {"-l", "--changed"});
  CHECK(ls.status == 0);
  CHECK(ls.err == "");
  CHECK(ls.out ==
        "A agent     - agents/AGempty.json\n"
        "A ai-tool   - ai-tools/TLempty.cs\n"
        "A endpoint  - endpoints/EPempty.cs\n"
        "A node-type - node-types/NTempty.json\n"
        "A prompt    - prompts/PRempty.md\n"
        "A skill     - skills/SKempty.md\n");
  auto grep = bounded(repo, "ws-grep", {"-c", "", "agents", "prompts"});
  CHECK(grep.status == 0);
  CHECK(grep.err == "");
  CHECK(grep.out == "agents/AGalpha.json:3\n");
}

TEST_CASE("bad input: a 100 MB file is refused by the size cap, unread", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGhuge.json", "");
  // Sparse: 100 MiB of zeros that cost no disk.
  REQUIRE(::truncate(repo.abs("agents/AGhuge.json").c_str(), 100ll << 20) == 0);
  const std::string refusal =
      "refused path 'agents/AGhuge.json': too-large (104857600 bytes, over the size cap of 1048576); split the file "
      "or raise \"size_cap\" in .ws/config.json";

  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(diagnostic_lines(b.out) == std::vector<std::string>{"agents/AGhuge.json: error[WS003]: " + refusal});
  CHECK(lines(b.out).back() == "1 error in 1 file (1 file changed)");

  auto ls = bounded(repo, "ws-ls", {"--json", "--changed"});
  CHECK(ls.status == 0);
  auto ls_lines = lines(ls.out);
  REQUIRE(ls_lines.size() == 1);
  auto e = nlohmann::json::parse(ls_lines[0]);
  CHECK(e["path"] == "agents/AGhuge.json");
  CHECK(e["size"] == 100ll << 20);
  CHECK(e["blob"].is_null());  // never hashed, so never read

  auto grep = bounded(repo, "ws-grep", {"Alpha"});
  CHECK(grep.status == 2);  // a match, and an error: as rg, the error wins
  CHECK(grep.out == "agents/AGalpha.json:2:  \"name\": \"Alpha\"\n");
  CHECK(grep.err == "ws-grep: " + refusal + "\n");

}

TEST_CASE("bad input: a committed 100 MB blob is refused by its size, not inflated first", "[bad-input]") {
  // Regression: a blob from the object database was inflated whole, and
  // copied, before its size was compared with the cap: 100 MiB of zeros
  // (100 KiB compressed) cost 217 MB of memory, and a pushed gigabyte of
  // zeros would take a CI gate or a pre-receive hook down. The size now
  // comes from the object header (git_odb_read_header) first.
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGhuge.json", "");
  REQUIRE(::truncate(repo.abs("agents/AGhuge.json").c_str(), 100ll << 20) == 0);
  repo.commit_all("a huge file");
  auto all = bounded(repo, "ws-build", {"--all"});
  CHECK(all.status == 1);
  auto d = diagnostic_lines(all.out);
  REQUIRE(d.size() == 1);
  CHECK(d[0].rfind("agents/AGhuge.json: error[WS003]: ", 0) == 0);
  CHECK(d[0].find("size cap") != std::string::npos);
  for (const char* view : {"--base", "--staged"}) {
    auto g = bounded(repo, "ws-grep", {"Alpha", view});
    INFO(view);
    CHECK(g.status == 2);
    CHECK(g.out == "agents/AGalpha.json:2:  \"name\": \"Alpha\"\n");
    CHECK(g.err.rfind("ws-grep: ", 0) == 0);
    CHECK(g.err.find("'agents/AGhuge.json'") != std::string::npos);
    CHECK(g.err.find("size cap") != std::string::npos);
    CHECK(lines(g.err).size() == 1);
  }
}

TEST_CASE("bad input: 10,000-deep nesting is WS016 in JSON, YAML and C#, and a deep manifest is refused",
          "[bad-input]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGdeep.json", repeat("[", 10000) + repeat("]", 10000) + "\n");
  repo.write("agents/AGdeepobj.json", repeat("{\"a\":", 10000) + "1" + repeat("}", 10000) + "\n");
  repo.write("prompts/PRdeep.md", "---\nname: Deep\nincludes: " + repeat("[", 10000) + repeat("]", 10000) +
                                      "\n---\nBody\n");
  repo.write("ai-tools/TLdeep.cs", "// name: DeepTool\nreturn " + repeat("(", 10000) + "1" + repeat(")", 10000) + ";\n");
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(b.err == "");
  CHECK(diagnostic_lines(b.out) == std::vector<std::string>{
                                       "agents/AGdeep.json:1:257: error[WS016]: nesting deeper than 256 levels",
                                       "agents/AGdeepobj.json:1:1281: error[WS016]: nesting deeper than 256 levels",
                                       "ai-tools/TLdeep.cs:2:261: error[WS016]: nesting deeper than 256 levels",
                                       "prompts/PRdeep.md:3:266: error[WS016]: nesting deeper than 256 levels",
                                   });
  auto ls = bounded(repo, "ws-ls", {"-l", "--changed"});
  CHECK(ls.status == 0);
  CHECK(ls.out ==
        "A agent   -        agents/AGdeep.json\n"
        "A agent   -        agents/AGdeepobj.json\n"
        "A ai-tool DeepTool ai-tools/TLdeep.cs\n"
        "A prompt  -        prompts/PRdeep.md\n");
  // The syntax classes of a deep file (--in) and the structural search.
  for (std::vector<std::string> args : {std::vector<std::string>{"--in", "key", "a", "agents/AGdeepobj.json"},
                                        std::vector<std::string>{"--in", "code", "1", "ai-tools"},
                                        std::vector<std::string>{"--ref", "Agents.Alpha"}}) {
    auto g = bounded(repo, "ws-grep", args);
    INFO(args[0] << " " << args[1]);
    CHECK(g.status <= 1);
    CHECK(g.err == "");
  }

  SECTION("a workspace kind manifest nested 10,000 deep") {
    repo.write(".ws/kinds/deep.json", "{\"kind\":\"deep\",\"files\":\"deep/*.json\",\"format\":\"json\",\"schema\":" +
                                          repeat("{\"items\":", 10000) + "{}" + repeat("}", 10000) + "}");
    for (const char* tool : {"ws-build", "ws-ls", "ws-grep"}) {
      auto r = bounded(repo, tool, tool == std::string("ws-grep") ? std::vector<std::string>{"x"}
                                                                  : std::vector<std::string>{});
      CHECK(r.status == 2);
      CHECK(r.out == "");
      CHECK(r.err == std::string(tool) + ": kind manifest '.ws/kinds/deep.json': nests deeper than 64 levels\n");
    }
  }
}

TEST_CASE("bad input: a number out of range in a kind manifest is refused, not a crash", "[bad-input]") {
  // Found by fuzz_kind_manifest: nlohmann throws out_of_range (406) for a
  // number beyond double range, which is not a parse_error.
  TempRepo repo;
  seed(repo);
  repo.write(".ws/kinds/big.json", "{\"kind\": \"big\", \"files\": \"big/*.json\", \"format\": \"json\", "
                                   "\"schema\": {\"maxLength\": 1E400}}\n");
  for (const char* tool : {"ws-build", "ws-ls", "ws-grep"}) {
    auto r = bounded(repo, tool, tool == std::string("ws-grep") ? std::vector<std::string>{"x"}
                                                                : std::vector<std::string>{});
    INFO(tool);
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err.rfind(std::string(tool) + ": kind manifest '.ws/kinds/big.json': ", 0) == 0);
    CHECK(lines(r.err).size() == 1);
  }
}

TEST_CASE("bad input: invalid UTF-8 and NUL bytes are WS002 at the byte", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGutf8.json", "{\n  \"name\": \"Bad\xff\"\n}\n");
  repo.write("agents/AGoverlong.json", "{\n  \"name\": \"Ov\",\n  \"description\": \"\xc0\xaf\"\n}\n");
  repo.write("agents/AGnul.json", std::string("{\n  \"name\": \"Nul\",\n  \"description\": \"a\0b\"\n}\n", 44));
  repo.write("ai-tools/TLnul.cs", std::string("// name: NulTool\nreturn \"\0\";\n", 30));
  repo.write("prompts/PRbad.md", "---\nname: BadPrompt\n---\nBody \xfe\n");
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(b.err == "");
  CHECK(diagnostic_lines(b.out) ==
        std::vector<std::string>{
            "agents/AGnul.json:3:20: error[WS002]: NUL byte: definitions are UTF-8 text",
            "agents/AGoverlong.json:3:19: error[WS002]: invalid UTF-8 (byte 0xc0): definitions are UTF-8 text",
            "agents/AGutf8.json:2:15: error[WS002]: invalid UTF-8 (byte 0xff): definitions are UTF-8 text",
            "ai-tools/TLnul.cs:2:9: error[WS002]: NUL byte: definitions are UTF-8 text",
            "prompts/PRbad.md:4:6: error[WS002]: invalid UTF-8 (byte 0xfe): definitions are UTF-8 text",
        });
  // Machine formats stay valid JSON with hostile bytes in the quoted source.
  for (const char* format : {"json", "sarif", "gitlab"}) {
    auto f = bounded(repo, "ws-build", {"--format", format});
    INFO(format);
    CHECK(f.status == 1);
    if (format == "json") CHECK(wstest::output_problems("ws-build", f.out) == "");
    else CHECK(nlohmann::json::accept(f.out));
  }
  // ws-grep prints raw lines (as rg does), skips NUL files as binary, and its
  // JSON stays parseable.
  auto g = bounded(repo, "ws-grep", {"--stats", "Bad"});
  CHECK(g.status == 0);
  CHECK(g.out == "agents/AGutf8.json:2:  \"name\": \"Bad\xff\"\n" "prompts/PRbad.md:2:name: BadPrompt\n");
  CHECK(starting(g.err, "ws-grep: skipped binary file") ==
        std::vector<std::string>{"ws-grep: skipped binary file 'agents/AGnul.json'",
                                 "ws-grep: skipped binary file 'ai-tools/TLnul.cs'"});
  auto gj = bounded(repo, "ws-grep", {"--json", "Bad"});
  CHECK(gj.status == 0);
  for (const auto& l : lines(gj.out)) {
    INFO(l);
    CHECK(nlohmann::json::accept(l));
  }
  CHECK(bounded(repo, "ws-ls", {"--changed"}).status == 0);
}

TEST_CASE("bad input: CRLF line ends and a BOM read like LF files, positions in bytes", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  const std::string bom = "\xef\xbb\xbf";
  repo.write("agents/AGcrlf.json", bom + "{\r\n  \"name\": \"Crlf\",\r\n  \"prompt\": \"Tone\"\r\n}\r\n");
  repo.write("prompts/PRtone.md", bom + "---\r\nname: Tone\r\n---\r\nBe kind.\r\n");
  repo.write("ai-tools/TLcrlf.cs", bom + "// name: CrlfTool\r\n// description: d\r\nreturn await Agents.Crlf.Run();\r\n");
  repo.write("endpoints/EPcrlf.cs",
             bom + "// name: CrlfEndpoint\r\n// route: /x\r\n// method: GET\r\nreturn Agents.Crlf.Run();\r\n");
  auto clean = bounded(repo, "ws-build", {});
  CHECK(clean.err == "");
  CHECK(clean.out == "4 files changed, compiled clean.\n");
  CHECK(clean.status == 0);
  auto ls = bounded(repo, "ws-ls", {"-l", "--changed"});
  CHECK(ls.out ==
        "A agent    Crlf         agents/AGcrlf.json\n"
        "A ai-tool  CrlfTool     ai-tools/TLcrlf.cs\n"
        "A endpoint CrlfEndpoint endpoints/EPcrlf.cs\n"
        "A prompt   Tone         prompts/PRtone.md\n");

  // Errors on a BOM line and on a CRLF line: byte columns, the BOM counted.
  repo.write("agents/AGcrlf.json", bom + "{\"name\": \"Crlf\", \"toosl\": 1,\r\n  \"tools\": [\"Nope\"]}\r\n");
  repo.write("ai-tools/TLcrlf.cs", bom + "// name: CrlfTool\r\nreturn await Agents.Nobody.Run();\r\n");
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(diagnostic_lines(b.out) ==
        std::vector<std::string>{
            // Byte columns: the BOM's three bytes count, as in clang.
            "agents/AGcrlf.json:1:21: error[WS006]: unknown field 'toosl' in agent; allowed: description, handoffs, "
            "model, name, prompt, skills, tools",
            "agents/AGcrlf.json:2:14: error[WS010]: unresolved reference to AI tool 'Nope'",
            "ai-tools/TLcrlf.cs:2:14: error[WS010]: unresolved reference 'Agents.Nobody'",
        });
}

TEST_CASE("bad input: lone surrogates in JSON strings are syntax errors, pairs are fine", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGpair.json", "{\n  \"name\": \"Pair\",\n  \"description\": \"\\ud83d\\ude00 \\u00e9\"\n}\n");
  repo.write("agents/AGhigh.json", "{\n  \"name\": \"High\",\n  \"description\": \"x\\ud800y\"\n}\n");
  repo.write("agents/AGlow.json", "{\n  \"name\": \"Lone\\udc00\"\n}\n");
  repo.write("agents/AGend.json", "{\n  \"name\": \"End\",\n  \"model\": \"\\ud800\"\n}\n");
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(diagnostic_lines(b.out) ==
        std::vector<std::string>{
            "agents/AGend.json:3:12: error[WS001]: syntax error: invalid string '\"\\ud800\"'",
            "agents/AGhigh.json:3:18: error[WS001]: syntax error: invalid string '\"x\\ud800y\"'",
            "agents/AGlow.json:2:11: error[WS001]: syntax error: invalid string '\"Lone\\udc00\"'",
        });
  auto f = bounded(repo, "ws-build", {"--format", "json"});
  CHECK(wstest::output_problems("ws-build", f.out) == "");
  auto ls = bounded(repo, "ws-ls", {"-l", "--changed"});
  CHECK(ls.out ==
        "A agent -    agents/AGend.json\n"
        "A agent -    agents/AGhigh.json\n"
        "A agent -    agents/AGlow.json\n"
        "A agent Pair agents/AGpair.json\n");
}

TEST_CASE("bad input: a tree entry named with 10,000 characters is refused as too-long", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  std::string blob = wstest::chomp(repo.git({"hash-object", "-w", "agents/AGalpha.json"}));
  std::string long_name = std::string(10000, 'L') + ".json";
  wstest::RunOptions o;
  o.cwd = repo.path();
  o.input = "100644 blob " + blob + "\t" + long_name + "\n100644 blob " + blob + "\tAGalpha.json\n";
  auto sub = wstest::run({"git", "mktree"}, o);
  REQUIRE(sub.status == 0);
  o.input = "040000 tree " + wstest::chomp(sub.out) + "\tagents\n";
  auto root = wstest::run({"git", "mktree"}, o);
  REQUIRE(root.status == 0);
  std::string commit = wstest::chomp(repo.git({"commit-tree", wstest::chomp(root.out), "-p", "HEAD", "-m", "long"}));
  const std::string path = "agents/" + long_name;
  const std::string refusal = "refused path '" + path + "': too-long (over 4096 bytes, a component over 255, or over 256 components); use shorter names and fewer folders";

  auto ls = bounded(repo, "ws-ls", {"--rev", commit});
  CHECK(ls.status == 1);
  CHECK(ls.out == "agents/AGalpha.json\n");
  CHECK(ls.err == "ws-ls: " + refusal + "\n");
  auto b = bounded(repo, "ws-build", {"--rev", commit});
  CHECK(b.status == 1);
  CHECK(diagnostic_lines(b.out) == std::vector<std::string>{path + ": error[WS004]: " + refusal});
  auto g = bounded(repo, "ws-grep", {"--rev", commit, "Alpha"});
  CHECK(g.status == 2);
  CHECK(g.out == "agents/AGalpha.json:2:  \"name\": \"Alpha\"\n");
  CHECK(g.err == "ws-grep: " + refusal + "\n");
}

TEST_CASE("bad input: a definition name of 10,000 characters is not a C# identifier", "[bad-input]") {
  // C# compilers refuse identifiers over 512 characters (Roslyn: CS0645,
  // "identifier too long"), so such a name cannot be referenced from code and
  // is WS008, whose message quotes 32 characters of it, not 10,000.
  TempRepo repo;
  seed(repo);
  const std::string name(10000, 'A');
  repo.write("agents/AGlong.json", "{\n  \"name\": \"" + name + "\"\n}\n");
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(b.err == "");
  CHECK(diagnostic_lines(b.out) ==
        std::vector<std::string>{"agents/AGlong.json:2:12: error[WS008]: invalid name '" + std::string(32, 'A') +
                                 "...': 10000 characters, a name has at most 512"});
  auto out = lines(b.out);
  REQUIRE(out.size() == 4);  // the diagnostic, the quoted line, the caret line, the summary
  CHECK(out[1] == "  \"name\": \"" + name + "\"");
  CHECK(out[2] == std::string(11, ' ') + "^" + std::string(9999, '~'));
  CHECK(out[3] == "1 error in 1 file (1 file changed)");
  // A 512-character name is still a name.
  repo.write("agents/AGlong.json", "{\n  \"name\": \"" + name.substr(0, 512) + "\"\n}\n");
  auto ok = bounded(repo, "ws-build", {});
  CHECK(ok.status == 0);
  CHECK(ok.out == "1 file changed, compiled clean.\n");
  // One long name must not widen every other row of a listing: the refused
  // one is shown as '-'.
  repo.write("agents/AGlong.json", "{\n  \"name\": \"" + name + "\"\n}\n");
  auto ls = bounded(repo, "ws-ls", {"-l"});
  CHECK(ls.status == 0);
  CHECK(ls.err == "");
  CHECK(ls.out == "- agent Alpha agents/AGalpha.json\nA agent -     agents/AGlong.json\n");
}

TEST_CASE("bad input: 50,000 definitions in one folder, listed, built and searched in bounded time and memory",
          "[bad-input][big]") {
  TempRepo repo;
  seed(repo);
  const int n = 50000;
  {
    fs::create_directories(repo.abs("agents"));
    char path[4096], body[64];
    int failed = 0;
    for (int i = 0; i < n; ++i) {
      std::snprintf(path, sizeof path, "%s/agents/A%05d.json", repo.path().c_str(), i);
      // The last one reuses the first one's name: two WS009 among 50,000 clean files.
      int len = std::snprintf(body, sizeof body, "{\n  \"name\": \"Agent%05d\"\n}\n", i == n - 1 ? 0 : i);
      int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0 || ::write(fd, body, static_cast<std::size_t>(len)) != len) ++failed;
      if (fd >= 0) ::close(fd);
    }
    REQUIRE(failed == 0);
  }
  auto ls = bounded(repo, "ws-ls", {"--changed"}, 180);
  CHECK(ls.status == 0);
  auto ls_lines = lines(ls.out);
  REQUIRE(ls_lines.size() == static_cast<std::size_t>(n));
  CHECK(ls_lines.front() == "agents/A00000.json");
  CHECK(ls_lines.back() == "agents/A49999.json");
  CHECK(std::is_sorted(ls_lines.begin(), ls_lines.end()));

  auto b = bounded(repo, "ws-build", {"--no-cache"}, 180);
  CHECK(b.status == 1);
  CHECK(b.err == "");
  auto d = diagnostic_lines(b.out);
  REQUIRE(d.size() == 2);
  CHECK(d[0] == "agents/A00000.json:2:12: error[WS009]: duplicate agent name 'Agent00000'");
  CHECK(d[1] == "agents/A49999.json:2:12: error[WS009]: duplicate agent name 'Agent00000'");
  CHECK(lines(b.out).back() == "2 errors in 2 files (50000 files changed)");

  auto g = bounded(repo, "ws-grep", {"-c", "Agent4999[0-8]"}, 180);
  CHECK(g.status == 0);
  CHECK(lines(g.out).size() == 9);
  auto max = bounded(repo, "ws-ls", {"--max", "3"}, 180);
  CHECK(max.out == "agents/A00000.json\nagents/A00001.json\nagents/A00002.json\n"
                   "Listing-Truncated: 49998 more entries (raise --max)\n");
}

namespace {

// A tree holding one file at `prefix` + directories of 200 bytes + a file
// name of at most 255, `total` bytes in all; returns the full path and the tree's id.
std::pair<std::string, std::string> deep_tree(const TempRepo& repo, const std::string& blob, const std::string& prefix,
                                              std::size_t total) {
  wstest::RunOptions o;
  o.cwd = repo.path();
  const std::string dir(200, 'd');
  const std::size_t dirs = (total - prefix.size() - 255 + 200) / 201;
  const std::string file(total - prefix.size() - dirs * 201, 'f');
  o.input = "100644 blob " + blob + "\t" + file + "\n";
  std::string tree = wstest::chomp(wstest::run({"git", "mktree"}, o).out);
  for (std::size_t i = 0; i < dirs; ++i) {
    o.input = "040000 tree " + tree + "\t" + dir + "\n";
    tree = wstest::chomp(wstest::run({"git", "mktree"}, o).out);
  }
  std::string path = prefix;
  for (std::size_t i = 0; i < dirs; ++i) path += dir + "/";
  return {path + file, tree};
}

// Makes `rel` (directories of any depth) beneath `root` with *at() calls, so
// the absolute path may exceed what one system call accepts.
void write_deep(const std::string& root, const std::string& rel, const std::string& bytes) {
  int dir = ::open(root.c_str(), O_DIRECTORY | O_CLOEXEC);
  REQUIRE(dir >= 0);
  std::size_t start = 0;
  for (std::size_t slash; (slash = rel.find('/', start)) != std::string::npos; start = slash + 1) {
    std::string comp = rel.substr(start, slash - start);
    ::mkdirat(dir, comp.c_str(), 0755);
    int next = ::openat(dir, comp.c_str(), O_DIRECTORY | O_CLOEXEC);
    ::close(dir);
    REQUIRE(next >= 0);
    dir = next;
  }
  int fd = ::openat(dir, rel.substr(start).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ::close(dir);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  ::close(fd);
}

}  // namespace

TEST_CASE("bad input: a path of 4,096 bytes is accepted, one byte more is too-long", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  std::string blob = wstest::chomp(repo.git({"hash-object", "-w", "agents/AGalpha.json"}));
  // Committed trees (git trees have no length limit), seen through --rev.
  auto [ok_path, ok_tree] = deep_tree(repo, blob, "ok/", 4096);
  auto [long_path, long_tree] = deep_tree(repo, blob, "long/", 4097);
  REQUIRE(ok_path.size() == 4096);
  REQUIRE(long_path.size() == 4097);
  wstest::RunOptions o;
  o.cwd = repo.path();
  o.input = "040000 tree " + wstest::chomp(repo.git({"rev-parse", "HEAD:agents"})) + "\tagents\n040000 tree " +
            long_tree + "\tlong\n040000 tree " + ok_tree + "\tok\n";
  auto mk = wstest::run({"git", "mktree"}, o);
  REQUIRE(mk.status == 0);
  std::string commit = wstest::chomp(repo.git({"commit-tree", wstest::chomp(mk.out), "-p", "HEAD", "-m", "deep"}));
  // Compared with the long paths elided, so a failure prints readably.
  auto elide = [&](std::string s) {
    for (const auto& [from, to] : {std::pair{long_path, std::string("<LONG>")}, std::pair{ok_path, std::string("<OK>")}})
      for (std::size_t at; (at = s.find(from)) != std::string::npos;) s.replace(at, from.size(), to);
    return s;
  };
  const std::string refusal =
      "refused path '<LONG>': too-long (over 4096 bytes, a component over 255, or over 256 components); use shorter names and fewer folders";

  auto ls = bounded(repo, "ws-ls", {"--rev", commit});
  CHECK(ls.status == 1);
  CHECK(elide(ls.out) == "agents/AGalpha.json\n<OK>\n");
  CHECK(elide(ls.err) == "ws-ls: " + refusal + "\n");
  auto b = bounded(repo, "ws-build", {"--rev", commit});
  CHECK(b.status == 1);
  CHECK(elide(b.err) == "");
  auto d = diagnostic_lines(elide(b.out));
  CHECK(d == std::vector<std::string>{
                 "<LONG>: error[WS004]: " + refusal,
                 "<LONG>: warning[WS005]: file is in no kind's folder, so nothing reads it",
                 "<OK>: warning[WS005]: file is in no kind's folder, so nothing reads it",
             });
  auto g = bounded(repo, "ws-grep", {"--rev", commit, "-l", "Alpha"});
  CHECK(g.status == 2);
  CHECK(elide(g.out) == "agents/AGalpha.json\n<OK>\n");
  CHECK(elide(g.err) == "ws-grep: " + refusal + "\n");
}

TEST_CASE("bad input: a working-tree path as deep as one system call can name is read", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  // The absolute path stays under PATH_MAX (4,096 with its NUL).
  std::size_t rel_size = 4095 - repo.path().size() - 1;
  std::string rel = "deep/";
  while (rel.size() + 201 + 100 < rel_size) rel += std::string(200, 'd') + "/";
  rel += std::string(rel_size - rel.size(), 'f');
  REQUIRE(rel.size() == rel_size);
  REQUIRE(rel.size() - rel.rfind('/') - 1 <= 255);
  write_deep(repo.path(), rel, "deep content Alpha\n");
  auto elide = [&](std::string s) {
    for (std::size_t at; (at = s.find(rel)) != std::string::npos;) s.replace(at, rel.size(), "<DEEP>");
    return s;
  };
  auto ls = bounded(repo, "ws-ls", {"--changed"});
  CHECK(ls.status == 0);
  CHECK(elide(ls.out) == "<DEEP>\n");
  // Read and reported: a file in an unknown folder is a warning (ws(7), DEFINITIONS).
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 0);
  CHECK(diagnostic_lines(elide(b.out)) ==
        std::vector<std::string>{"<DEEP>: warning[WS005]: file is in no kind's folder, so nothing reads it"});
  auto g = bounded(repo, "ws-grep", {"-l", "deep content"});
  CHECK(g.status == 0);
  CHECK(elide(g.out) == "<DEEP>\n");
}

TEST_CASE("bad input: a working-tree file deeper than PATH_MAX is reported, not skipped", "[bad-input]") {
  // Regression: libgit2's working-tree walk drops a file whose absolute path
  // reaches PATH_MAX without a word, so ws-build said "compiled clean" over
  // a file it never saw (git itself refuses it loudly: "unable to stat").
  // The working-tree view now walks directory by directory (worktree_walk).
  TempRepo repo;
  seed(repo);
  std::string rel = "deep/";
  while (repo.path().size() + 1 + rel.size() < 4200) rel += std::string(200, 'd') + "/";
  rel += "AGdeep.json";
  write_deep(repo.path(), rel, "{\"name\": \"Deep\"}\n");
  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status != 0);
  CHECK(b.out.find("0 files changed, compiled clean.") == std::string::npos);
  auto ls = bounded(repo, "ws-ls", {"--changed"});
  CHECK((ls.out.find("AGdeep.json") != std::string::npos || ls.err.find("AGdeep.json") != std::string::npos));
}

TEST_CASE("bad input: file names with newlines and quotes: one escaped line each", "[bad-input]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/new\nline.json", "{\"name\": \"Newline\"}\n");
  repo.write("agents/it's \"quoted\".json", "{\"name\": \"Quoted\"}\n");
  repo.write("agents/tab\tand\x1b[31mred.json", "{\"name\": \"Escape\"}\n");
  const std::string nl_refusal =
      "refused path 'agents/new\\nline.json': control-char (NUL and control characters are not allowed in names); "
      "rename the file";
  const std::string esc_refusal =
      "refused path 'agents/tab\\tand\\x1b[31mred.json': control-char (NUL and control characters are not allowed "
      "in names); rename the file";

  auto b = bounded(repo, "ws-build", {});
  CHECK(b.status == 1);
  CHECK(b.err == "");
  CHECK(b.out.find('\x1b') == std::string::npos);
  // Every line of the report is a diagnostic, a quoted source line, a caret
  // line or the summary: no raw newline from a name splits one.
  for (const auto& l : lines(b.out)) {
    INFO(l);
    CHECK(l.rfind("line.json", 0) != 0);
  }
  auto d = diagnostic_lines(b.out);
  CHECK(std::count(d.begin(), d.end(), "agents/new\\nline.json: error[WS004]: " + nl_refusal) == 1);
  CHECK(std::count(d.begin(), d.end(), "agents/tab\tand\\x1b[31mred.json: error[WS004]: " + esc_refusal) == 1);
  CHECK(std::count(d.begin(), d.end(),
                   "agents/it's \"quoted\".json: error[WS005]: file does not fit kind 'agent': its files are "
                   "agents/*.json") == 1);
  auto j = bounded(repo, "ws-build", {"--format", "json"});
  std::vector<std::string> paths;
  const auto doc = wstest::build_report(j.out);
  for (const auto& x : doc["diagnostics"]) paths.push_back(x["path"]);
  CHECK(std::count(paths.begin(), paths.end(), "agents/it's \"quoted\".json") == 1);
  CHECK(std::count(paths.begin(), paths.end(), "agents/new\nline.json") == 2);  // WS004, and WS005

  auto ls = bounded(repo, "ws-ls", {"-l"});
  CHECK(ls.status == 1);
  CHECK(ls.out == "- agent    Alpha agents/AGalpha.json\nA unrouted -     agents/it's \"quoted\".json\n");
  CHECK(ls.err == "ws-ls: " + nl_refusal + "\nws-ls: " + esc_refusal + "\n");
  auto z = bounded(repo, "ws-ls", {"-z"});
  CHECK(z.out == std::string("agents/AGalpha.json\0agents/it's \"quoted\".json\0", 46));
  auto lj = bounded(repo, "ws-ls", {"--json"});
  auto lj_lines = lines(lj.out);
  REQUIRE(lj_lines.size() == 2);
  CHECK(nlohmann::json::parse(lj_lines[1])["path"] == "agents/it's \"quoted\".json");

  auto g = bounded(repo, "ws-grep", {"name"});
  CHECK(g.status == 2);
  CHECK(g.out == "agents/AGalpha.json:2:  \"name\": \"Alpha\"\nagents/it's \"quoted\".json:1:{\"name\": \"Quoted\"}\n");
  CHECK(g.err == "ws-grep: " + nl_refusal + "\nws-grep: " + esc_refusal + "\n");
}

TEST_CASE("bad input: a kind schema that refers to itself is a manifest error in every tool", "[bad-input]") {
  // {"$ref": "#"} sent valijson's parser round the reference forever, and a
  // cycle through allOf would send the validator round it: a segfault in
  // every tool that loads the pack.
  TempRepo repo;
  seed(repo);
  const std::string head = R"({"kind": "agent", "files": "agents/*.json", "format": "json", "symbol": "Agents", "name": "/name", "schema": )";
  struct Row {
    std::string schema;
    std::string problem;
  };
  const std::vector<Row> rows = {
      {R"({"$ref": "#"})", "schema refers to itself without checking any part of the value: '#' -> '#'"},
      {R"({"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"allOf": [{"$ref": "#/definitions/a"}]}}, "$ref": "#/definitions/a"})",
       "schema refers to itself without checking any part of the value: '#/definitions/a' -> '#/definitions/b' -> "
       "'#/definitions/b/allOf/0' -> '#/definitions/a'"},
  };
  for (const Row& row : rows) {
    repo.write(".ws/kinds/agent.json", head + row.schema + "}");
    for (bool committed : {false, true}) {
      if (committed) repo.commit_all("a cyclic agent schema");
      for (const char* tool : {"ws-ls", "ws-grep", "ws-build", "ws-commit"}) {
        std::vector<std::string> args;
        if (tool == std::string("ws-grep")) args = {"Alpha"};
        if (tool == std::string("ws-build")) args = {"--all"};
        if (tool == std::string("ws-commit")) args = {"-m", "x"};
        auto r = bounded(repo, tool, args);
        INFO(tool << (committed ? " (committed)" : " (working tree)") << ": " << row.schema);
        CHECK(r.status == 2);
        CHECK(r.out == "");
        CHECK(r.err == std::string(tool) + ": kind manifest '.ws/kinds/agent.json': invalid schema: " + row.problem + "\n");
      }
    }
    repo.git({"rm", "-q", ".ws/kinds/agent.json"});
    repo.commit_all("drop the schema");
  }
}

TEST_CASE("bad input: a FIFO where git reads a file is refused without blocking", "[bad-input]") {
  // libgit2 opens ignore, exclude, config and index files with a plain
  // open(2), which waits forever for a writer on a FIFO.
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGnew.json", "{\"name\": \"New\"}\n");  // untracked: its ignore rules are read
  const std::string git_dir = repo.path() + "/.git/";
  struct Site {
    std::string path;  // relative to the repository
    std::string shown;  // as the message names it
    std::string what;
  };
  const std::vector<Site> sites = {
      {".gitignore", "path '.gitignore'", "ignore rules from "},
      {"agents/.gitignore", "path 'agents/.gitignore'", "ignore rules from "},
      {".git/info/exclude", "'" + git_dir + "info/exclude'", ""},
      {".git/index", "'" + git_dir + "index'", ""},
      {".git/config", "'" + git_dir + "config'", ""},
  };
  for (const Site& site : sites) {
    const std::string abs = repo.abs(site.path);
    const std::string saved = abs + ".saved";
    if (repo.exists(site.path)) std::filesystem::rename(abs, saved);
    std::filesystem::create_directories(std::filesystem::path(abs).parent_path());
    REQUIRE(::mkfifo(abs.c_str(), 0644) == 0);
    for (const char* tool : {"ws-ls", "ws-grep", "ws-build", "ws-commit"}) {
      std::vector<std::string> args;
      if (tool == std::string("ws-grep")) args = {"Alpha"};
      if (tool == std::string("ws-commit")) args = {"-m", "x"};
      auto r = bounded(repo, tool, args, 20);
      INFO(tool << " with a FIFO at " << site.path);
      CHECK(r.status == 2);
      CHECK(r.out == "");
      CHECK(r.err == std::string(tool) + ": refused " + site.shown + ": a FIFO where git reads " + site.what +
                         "a regular file; remove it or replace it with a file\n");
    }
    std::filesystem::remove(abs);
    if (std::filesystem::exists(saved)) std::filesystem::rename(saved, abs);
  }
  // A symlink as an ignore file would be followed out of the tree.
  std::filesystem::create_symlink("/etc/passwd", repo.abs("agents/.gitignore"));
  auto r = bounded(repo, "ws-ls", {});
  CHECK(r.status == 2);
  CHECK(r.err == "ws-ls: refused path 'agents/.gitignore': a symlink where git reads ignore rules from a regular "
                 "file; remove it or replace it with a file\n");
  std::filesystem::remove(repo.abs("agents/.gitignore"));
  CHECK(bounded(repo, "ws-ls", {}).status == 0);
}

TEST_CASE("bad input: 2^16 nested brackets in every format are a diagnostic in every tool", "[bad-input]") {
  // tree-sitter 0.20.7 (Debian's) freed a tree of 2^16 nested nodes wrongly
  // (tree-sitter issue 2134): abort or segfault in every tool that parsed it.
  TempRepo repo;
  seed(repo);
  const std::size_t n = 65600;
  auto nest = [](const std::string& open, const std::string& middle, const std::string& close, std::size_t depth) {
    return repeat(open, depth) + middle + repeat(close, depth);
  };
  const std::map<std::string, std::string> files = {
      {"ai-tools/TLparen.cs", "// name: Paren\nreturn " + nest("(", "1", ")", n) + ";\n"},
      {"ai-tools/TLbrack.cs", "// name: Brack\nvar x = " + nest("[", "", "]", n) + ";\n"},
      {"ai-tools/TLbrace.cs", "// name: Brace\n" + nest("{", "", "}", n) + "\n"},
      {"ai-tools/TLinterp.cs", "// name: Interp\nreturn " + nest("$\"{", "1", "}\"", n) + ";\n"},
      {"agents/AGdeep.json", nest("[", "", "]", 65536) + "\n"},
      {"agents/AGdeeper.json", nest("[", "", "]", 65535) + "\n"},
      {"prompts/PRdeep.md", "---\nname: Deep\nx: " + nest("[", "", "]", 65536) + "\n---\n"},
      {"prompts/PRblocks.md", "---\nname: Blocks\nx:\n" + repeat("- ", 65536) + "a\n---\n"},
  };
  for (const auto& [path, bytes] : files) repo.write(path, bytes);
  for (bool committed : {false, true}) {
    if (committed) repo.commit_all("deep files");
    for (const char* format : {"human", "json", "sarif"}) {
      auto b = bounded(repo, "ws-build", {"--all", "--format", format}, 300);
      INFO("ws-build --format " << format << (committed ? " (committed)" : ""));
      CHECK(b.status == 1);
      CHECK(b.err == "");
      for (const auto& [path, bytes] : files) CHECK(b.out.find(path) != std::string::npos);
    }
    auto human = bounded(repo, "ws-build", {"--all"}, 300);
    for (const auto& [path, bytes] : files) {
      INFO(path);
      bool diagnosed = false;
      for (const auto& l : diagnostic_lines(human.out))
        diagnosed = diagnosed || (l.rfind(path + ":", 0) == 0 && (l.find("error[WS016]") != std::string::npos ||
                                                                  l.find("error[WS001]") != std::string::npos));
      CHECK(diagnosed);
    }
    for (std::vector<std::string> args : {std::vector<std::string>{"ws-ls", "-l"},
                                          std::vector<std::string>{"ws-grep", "--in", "code", "1"},
                                          std::vector<std::string>{"ws-grep", "--ref", "Agents.Alpha"},
                                          std::vector<std::string>{"ws-commit", "-m", "deep"}}) {
      std::string tool = args[0];
      args.erase(args.begin());
      auto r = bounded(repo, tool, args, 300);
      INFO(tool << (committed ? " (committed)" : ""));
      CHECK(r.status <= 1);
    }
  }
}
