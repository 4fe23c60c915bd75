// Installing: `cmake --install` into a temporary prefix, the installed tools
// finding the kind pack installed beside them, man finding the pages, bash
// finding the completion; --version of every tool; and the .deb CPack makes
// (built and inspected always; installed with apt only as root and when
// WS_TEST_DEB_INSTALL=1).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::lines;
using wstest::run;
using wstest::TempDir;
using wstest::TempRepo;

namespace {

const std::vector<std::string> kTools{"ws-ls", "ws-grep", "ws-build", "ws-commit", "ws-apply"};

std::string build_dir() { return fs::path(WS_BIN_DIR).parent_path().string(); }

std::string read_file(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The project's version, from CMakeLists.txt.
std::string project_version() {
  std::string cmake = read_file(fs::path(WS_SOURCE_DIR) / "CMakeLists.txt");
  std::smatch m;
  REQUIRE(std::regex_search(cmake, m, std::regex(R"(project\(ws VERSION ([0-9.]+))")));
  return m[1].str();
}

// "ws-ls 0.1.0 (tree-sitter@0.25.1, grammars: tree-sitter-c-sharp@0.23.5, ...)",
// from the project's version and the pins in grammars/grammars.tsv.
std::string expected_version(const std::string& tool) {
  std::string runtime, grammars;
  for (const auto& line : lines(read_file(fs::path(WS_SOURCE_DIR) / "grammars" / "grammars.tsv"))) {
    if (line.empty() || line[0] == '#') continue;
    auto a = line.find('\t');
    auto b = line.find('\t', a + 1);
    std::string spec = line.substr(a + 1, b - a - 1);
    if (line.substr(0, a) == "runtime") runtime = spec;
    else grammars += (grammars.empty() ? "" : ", ") + spec;
  }
  return tool + " " + project_version() + " (" + runtime + ", grammars: " + grammars + ")\n";
}

// The environment of an installed tool: nothing points it at the source tree.
wstest::RunOptions installed_env(const std::string& cwd) {
  wstest::RunOptions o;
  o.cwd = cwd;
  o.unset_env = {"WS_KINDS_DIR", "WS_SESSION", "NO_COLOR", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
                 "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "BASH_ENV", "ENV"};
  return o;
}

void seed(const TempRepo& repo) {
  repo.write("agents/AGa.json", "{\n  \"name\": \"Alpha\"\n}\n");
  repo.write("access/groups/staff.json", "{\n  \"name\": \"Staff\"\n}\n");
  repo.write("widgets/w1.json", "{\n  \"name\": \"Knob\"\n}\n");
  repo.commit_all("seed");
}

const char* kWidgetKind =
    "{\n  \"kind\": \"widget\",\n  \"files\": \"widgets/*.json\",\n  \"format\": \"json\",\n"
    "  \"symbol\": \"Widgets\",\n  \"name\": \"/name\"\n}\n";

std::string completion_of(const std::string& completion_file, const std::string& bin,
                          const std::vector<std::string>& words, const std::string& cwd) {
  std::vector<std::string> argv{"bash", "--noprofile", "--norc", "-c",
                                "source \"$0\" || exit 3\n"
                                "COMP_WORDS=(\"${@:2}\"); COMP_CWORD=$1\n"
                                "_ws_complete || exit 4\n"
                                "for c in \"${COMPREPLY[@]}\"; do printf '%s\\n' \"$c\"; done",
                                completion_file, std::to_string(words.size() - 1)};
  argv.insert(argv.end(), words.begin(), words.end());
  auto o = installed_env(cwd);
  o.env["PATH"] = bin + ":/usr/bin:/bin";
  auto r = run(argv, o);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r.out;
}

}  // namespace

TEST_CASE("every tool prints its version and the grammar versions", "[install]") {
  std::vector<std::string> names = kTools;
  names.push_back("ws");
  for (const auto& tool : names) {
    INFO(tool);
    auto r = run({wstest::tool(tool), "--version"});
    CHECK(r.err == "");
    CHECK(r.status == 0);
    CHECK(r.out == expected_version(tool));
  }
}

TEST_CASE("cmake --install puts tools, kind pack, man pages and completion where they belong", "[install]") {
  TempDir prefix;
  auto inst = run({"cmake", "--install", build_dir(), "--prefix", prefix.path()}, {.timeout_seconds = 300});
  INFO(inst.out << inst.err);
  REQUIRE(inst.status == 0);
  fs::path p = prefix.path();

  // One executable, ws; each tool a relative link to it.
  CHECK(fs::is_regular_file(fs::symlink_status(p / "bin/ws")));
  CHECK(read_file(p / "share/man/man1/ws.1") == read_file(fs::path(WS_SOURCE_DIR) / "man/ws.1"));
  CHECK(read_file(p / "share/man/man1/ws-rename.1") == read_file(fs::path(WS_SOURCE_DIR) / "man/ws-rename.1"));
  CHECK(read_file(p / "share/man/man1/ws-lsp.1") == read_file(fs::path(WS_SOURCE_DIR) / "man/ws-lsp.1"));
  CHECK(fs::read_symlink(p / "bin/ws-lsp") == "ws");
  CHECK(read_file(p / "share/man/man1/ws-mcp.1") == read_file(fs::path(WS_SOURCE_DIR) / "man/ws-mcp.1"));
  CHECK(fs::read_symlink(p / "bin/ws-mcp") == "ws");
  CHECK(read_file(p / "share/zsh/vendor-completions/_ws") == read_file(fs::path(WS_SOURCE_DIR) / "completions/_ws"));
  std::vector<std::string> names = kTools;
  names.push_back("ws");
  for (const auto& name : names) {
    INFO(name);
    CHECK(read_file(p / "share/bash-completion/completions" / name) ==
          read_file(fs::path(WS_SOURCE_DIR) / "completions/ws.bash"));
    CHECK(read_file(p / "share/fish/vendor_completions.d" / (name + ".fish")) ==
          read_file(fs::path(WS_SOURCE_DIR) / "completions/ws.fish"));
  }
  for (const auto& tool : kTools) {
    INFO(tool);
    CHECK(fs::is_symlink(p / "bin" / tool));
    CHECK(fs::read_symlink(p / "bin" / tool) == "ws");
    CHECK(access((p / "bin" / tool).c_str(), X_OK) == 0);
    CHECK(read_file(p / "share/man/man1" / (tool + ".1")) == read_file(fs::path(WS_SOURCE_DIR) / "man" / (tool + ".1")));
    auto v = run({(p / "bin" / tool).string(), "--version"}, installed_env(prefix.path()));
    CHECK(v.status == 0);
    CHECK(v.out == expected_version(tool));
  }
  CHECK(read_file(p / "share/man/man7/ws.7") == read_file(fs::path(WS_SOURCE_DIR) / "man/ws.7"));
  std::size_t source_kinds = 0, installed_kinds = 0;
  for (const auto& e : fs::directory_iterator(fs::path(WS_SOURCE_DIR) / "schemas/kinds")) {
    INFO(e.path());
    CHECK(read_file(p / "share/ws/schemas/kinds" / e.path().filename()) == read_file(e.path()));
    ++source_kinds;
  }
  for (const auto& e : fs::directory_iterator(p / "share/ws/schemas/kinds")) installed_kinds += e.is_regular_file();
  CHECK(installed_kinds == source_kinds);
  std::size_t source_schemas = 0, installed_schemas = 0;
  for (const auto& e : fs::directory_iterator(fs::path(WS_SOURCE_DIR) / "schemas/output")) {
    INFO(e.path());
    CHECK(read_file(p / "share/ws/schemas/output" / e.path().filename()) == read_file(e.path()));
    ++source_schemas;
  }
  for (const auto& e : fs::directory_iterator(p / "share/ws/schemas/output")) installed_schemas += e.is_regular_file();
  CHECK(source_schemas == 6);  // the five tools' and ws rename's
  CHECK(installed_schemas == source_schemas);

  // man finds the pages under the prefix.
  wstest::RunOptions mo;
  mo.unset_env = {"MANPATH", "MANOPT"};
  auto man1 = run({"man", "-M", (p / "share/man").string(), "-w", "ws-build"}, mo);
  CHECK(man1.status == 0);
  CHECK(man1.out == (p / "share/man/man1/ws-build.1").string() + "\n");
  auto man7 = run({"man", "-M", (p / "share/man").string(), "-w", "7", "ws"}, mo);
  CHECK(man7.status == 0);
  CHECK(man7.out == (p / "share/man/man7/ws.7").string() + "\n");

  // The installed tools find the kind pack installed beside them, with no
  // WS_KINDS_DIR. A kind only the installed pack has proves it is that pack.
  {
    std::ofstream f(p / "share/ws/schemas/kinds/widget.json", std::ios::binary);
    f << kWidgetKind;
  }
  TempRepo repo;
  seed(repo);
  auto ls = run({(p / "bin/ws-ls").string(), "-l"}, installed_env(repo.path()));
  CHECK(ls.err == "");
  CHECK(ls.status == 0);
  CHECK(ls.out ==
        "- access-group Staff access/groups/staff.json\n"
        "- agent        Alpha agents/AGa.json\n"
        "- widget       Knob  widgets/w1.json\n");
  auto build = run({(p / "bin/ws-build").string(), "--all"}, installed_env(repo.path()));
  CHECK(build.err == "");
  CHECK(build.out == "3 files checked, compiled clean.\n");
  CHECK(build.status == 0);

  // The installed completion drives the installed tools.
  std::string completion = (p / "share/bash-completion/completions/ws-ls").string();
  std::string bin = (p / "bin").string();
  CHECK(completion_of(completion, bin, {"ws-build", "--for"}, repo.path()) == "--format\n");
  CHECK(completion_of(completion, bin, {"ws-ls", "--kind", "w"}, repo.path()) == "widget\n");
}

TEST_CASE("cpack makes a .deb with the tools, pages, kind pack, completion and library dependencies",
          "[deb][install]") {
  TempDir out;
  auto arch_run = run({"dpkg", "--print-architecture"});
  REQUIRE(arch_run.status == 0);
  std::string arch = wstest::chomp(arch_run.out);
  auto pack = run({"cpack", "--config", build_dir() + "/CPackConfig.cmake", "-G", "DEB", "-B", out.path()},
                  {.cwd = build_dir(), .timeout_seconds = 600});
  INFO(pack.out << pack.err);
  REQUIRE(pack.status == 0);
  std::string deb = out.path() + "/ws_" + project_version() + "_" + arch + ".deb";
  REQUIRE(fs::is_regular_file(deb));

  auto info = run({"dpkg-deb", "--info", deb});
  REQUIRE(info.status == 0);
  auto field = [&](const std::string& name) {
    for (const auto& line : lines(info.out))
      if (line.rfind(" " + name + ": ", 0) == 0) return line.substr(name.size() + 3);
    return std::string("<missing>");
  };
  CHECK(field("Package") == "ws");
  CHECK(field("Version") == project_version());
  CHECK(field("Architecture") == arch);
  CHECK(field("Section") == "devel");
  CHECK(field("Maintainer") == "ws maintainers <ws-maintainers@example.org>");
  CHECK(field("Description") == "check, stage and apply workspace definitions kept in git");
  // dpkg-shlibdeps declared the shared libraries the tools link, and only
  // those: statically linked (WS_STATIC_DEPS), libgit2, RE2, fmt and the C++
  // library and utf8proc are inside the tools. The pinned tree-sitter runtime is always
  // inside (README: Debian's libtree-sitter0 is never linked).
  std::string depends = field("Depends");
#if WS_TEST_STATIC_DEPS
  const std::vector<std::string> shared{"libc6"};
  const std::vector<std::string> inside{"libgit2-1.5", "libre2-9", "libfmt9", "libtree-sitter0", "libstdc++6",
                                        "libgssapi-krb5-2", "libutf8proc2"};
#else
  const std::vector<std::string> shared{"libgit2-1.5", "libre2-9", "libfmt9", "libc6", "libstdc++6", "libutf8proc2"};
  const std::vector<std::string> inside{"libtree-sitter0"};
#endif
  INFO(depends);
  for (const std::string& lib : shared) {
    INFO(lib);
    CHECK(depends.find(lib + " ") != std::string::npos);
  }
  for (const std::string& lib : inside) {
    INFO(lib);
    CHECK(depends.find(lib + " ") == std::string::npos);
  }

  auto contents = run({"dpkg-deb", "--contents", deb});
  REQUIRE(contents.status == 0);
  std::vector<std::string> files;
  for (const auto& line : lines(contents.out)) files.push_back(line.substr(line.find("./")));
  auto has = [&](const std::string& f) {
    for (const auto& x : files)
      if (x == f || x.rfind(f + " -> ", 0) == 0) return true;
    return false;
  };
  auto is_link_to_ws = [&](const std::string& f) {
    for (const auto& x : files)
      if (x == f + " -> ws") return true;
    return false;
  };
  CHECK(has("./usr/bin/ws"));
  CHECK(!is_link_to_ws("./usr/bin/ws"));
  CHECK(has("./usr/share/man/man1/ws.1"));
  CHECK(has("./usr/share/zsh/vendor-completions/_ws"));
  CHECK(has("./usr/share/bash-completion/completions/ws"));
  CHECK(has("./usr/share/fish/vendor_completions.d/ws.fish"));
  for (const auto& tool : kTools) {
    INFO(tool);
    CHECK(is_link_to_ws("./usr/bin/" + tool));
    CHECK(has("./usr/share/man/man1/" + tool + ".1"));
    CHECK(has("./usr/share/bash-completion/completions/" + tool));
    CHECK(has("./usr/share/fish/vendor_completions.d/" + tool + ".fish"));
  }
  CHECK(has("./usr/share/man/man7/ws.7"));
  for (const auto& e : fs::directory_iterator(fs::path(WS_SOURCE_DIR) / "schemas/kinds")) {
    INFO(e.path());
    CHECK(has("./usr/share/ws/schemas/kinds/" + e.path().filename().string()));
  }
  for (const auto& e : fs::directory_iterator(fs::path(WS_SOURCE_DIR) / "schemas/output")) {
    INFO(e.path());
    CHECK(has("./usr/share/ws/schemas/output/" + e.path().filename().string()));
  }

  const char* want_install = std::getenv("WS_TEST_DEB_INSTALL");
  if (geteuid() != 0 || !want_install || std::string(want_install) != "1") return;

  // apt installs it, its tools run from /usr with their kind pack, apt removes it.
  auto status = run({"dpkg-query", "-W", "-f=${Status}", "ws"});
  INFO("the package ws is already installed; remove it before running this test");
  REQUIRE(status.out.find("install ok installed") == std::string::npos);
  wstest::RunOptions apt;
  apt.env = {{"DEBIAN_FRONTEND", "noninteractive"}};
  apt.timeout_seconds = 600;
  auto installed = run({"apt-get", "install", "-y", "--no-install-recommends", deb}, apt);
  INFO(installed.out << installed.err);
  REQUIRE(installed.status == 0);
  // Whatever fails below, the package goes again.
  struct Remove {
    wstest::RunOptions apt;
    bool armed = true;
    ~Remove() {
      std::error_code ec;
      fs::remove("/usr/share/ws/schemas/kinds/widget.json", ec);
      if (armed) run({"apt-get", "remove", "-y", "ws"}, apt);
    }
  } remove_after{apt};

  for (const auto& tool : kTools) {
    INFO(tool);
    auto v = run({"/usr/bin/" + tool, "--version"}, installed_env("/"));
    CHECK(v.status == 0);
    CHECK(v.out == expected_version(tool));
  }
  {
    std::ofstream f("/usr/share/ws/schemas/kinds/widget.json", std::ios::binary);
    f << kWidgetKind;
  }
  TempRepo repo;
  seed(repo);
  auto ls = run({"/usr/bin/ws-ls", "-l"}, installed_env(repo.path()));
  CHECK(ls.err == "");
  CHECK(ls.out ==
        "- access-group Staff access/groups/staff.json\n"
        "- agent        Alpha agents/AGa.json\n"
        "- widget       Knob  widgets/w1.json\n");
  wstest::RunOptions mo;
  mo.unset_env = {"MANPATH", "MANOPT"};
  auto man = run({"man", "-w", "ws-build"}, mo);
  CHECK(man.out == "/usr/share/man/man1/ws-build.1\n");

  fs::remove("/usr/share/ws/schemas/kinds/widget.json");
  auto removed = run({"apt-get", "remove", "-y", "ws"}, apt);
  remove_after.armed = removed.status != 0;
  CHECK(removed.status == 0);
  CHECK(!fs::exists("/usr/bin/ws-ls"));
  CHECK(!fs::exists("/usr/share/ws/schemas/kinds/agent.json"));
}
