// libcheck's layers (docs/architecture.md, "Layers"; the table is
// libcheck/layers.txt): every #include of libcheck's sources and public
// headers is checked against the table and the nevers the table cannot say.
// The build refuses an upward include of a private header; this test also
// covers the public headers, which one include directory serves to all.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/source_scan.h"

namespace fs = std::filesystem;

namespace {

const fs::path kLibcheck = fs::path(WS_SOURCE_DIR) / "libcheck";

struct Table {
  std::vector<std::string> order;
  std::map<std::string, std::set<std::string>> below;  // layer -> the layers it may include
  std::map<std::string, std::string> public_layer;     // "kinds.h" -> "model"
  std::set<std::pair<std::string, std::string>> allowed;  // (file, header) let through for now
};

Table read_table(const std::string& text) {
  static const std::regex row(R"(^(public\s+)?([a-z]+)\s*:(.*)$)");
  static const std::regex allow(R"(^allow\s+(\S+)\s*:\s*(\S+)$)");
  Table t;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    line = std::regex_replace(line.substr(0, line.find('#')), std::regex(R"(^\s+|\s+$)"), "");
    std::smatch m;
    if (line.empty()) continue;
    if (std::regex_match(line, m, allow)) {
      t.allowed.insert({m[1], m[2]});
      continue;
    }
    REQUIRE(std::regex_match(line, m, row));
    std::istringstream names(m[3].str());
    std::set<std::string> list;
    for (std::string n; names >> n;) list.insert(n);
    if (m[1].matched) {
      for (const auto& h : list) t.public_layer[h] = m[2];
    } else {
      t.order.push_back(m[2]);
      t.below[m[2]] = list;
    }
  }
  return t;
}

// One source file: its name, its layer, and the text of its includes.
struct Source {
  std::string name;   // "libcheck/src/git/view.cpp"
  std::string base;   // "view.cpp"
  std::string layer;
  std::string text;
};

std::vector<std::string> includes_of(const std::string& text, bool quoted) {
  static const std::regex q(R"re(^\s*#\s*include\s+"([^"]+)")re"), a(R"re(^\s*#\s*include\s+<([^>]+)>)re");
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, quoted ? q : a)) out.push_back(m[1]);
  }
  return out;
}

// The layer of the header `name` as `from` includes it, or "" when it is
// no header of libcheck (a tool's, or missing).
std::string layer_of(const Table& t, const std::map<std::string, std::string>& private_layer,
                     const Source& from, const std::string& name) {
  if (name.rfind("libcheck/", 0) == 0) {
    auto it = t.public_layer.find(name.substr(9));
    return it == t.public_layer.end() ? "" : it->second;
  }
  auto it = private_layer.find(fs::path(name).filename().string());
  if (name.find('/') != std::string::npos || it == private_layer.end()) return "";
  (void)from;
  return it->second;
}

// The problem with `from` including the libcheck header `name` of `layer`, or "".
std::string layer_problem(const Table& t, const Source& from, const std::string& name, const std::string& layer) {
  if (layer.empty()) return from.name + " includes '" + name + "', no header of libcheck (tools are never included)";
  if (layer == from.layer || t.below.at(from.layer).count(layer)) return "";
  if (t.allowed.count({from.base, fs::path(name).filename().string()})) return "";
  return from.name + " (" + from.layer + ") includes '" + name + "' of the higher layer " + layer;
}

// The nevers the layer table cannot say (docs/architecture.md, "Layers").
std::string never_problem(const Source& from, const std::string& name, const std::string& layer) {
  if (from.layer == "render" && layer == "syntax" && name != "libcheck/diagnostic.h" && name != "libcheck/json_output.h")
    return from.name + " includes '" + name + "': render sees diagnostics only";
  if (from.layer == "proposal" && layer == "compile" && from.base != "proposal_rebuild.cpp")
    return from.name + " includes '" + name + "': proposal reaches compile only through proposal_rebuild.cpp";
  return "";
}

std::string system_never_problem(const Source& from, const std::string& name) {
  static const std::map<std::string, std::vector<std::string>> banned = {
      {"support", {"git2", "tree_sitter/", "nlohmann/", "re2/", "valijson/"}},
      {"syntax", {"git2"}},
      {"model", {"git2"}},
      {"read", {"git2"}},
      {"render", {"git2", "tree_sitter/", "re2/"}},
  };
  auto it = banned.find(from.layer);
  if (it == banned.end()) return "";
  for (const auto& prefix : it->second)
    if (name.rfind(prefix, 0) == 0) return from.name + " includes <" + name + ">, which " + from.layer + " never does";
  return "";
}

// Only git reads GIT_* variables or sets libgit2's process-wide options. A
// variable is read by getenv or secure_getenv; its name is a GIT_* one when
// the call's argument is such a literal, or when the call builds its name at
// run time in a file that holds a literal starting "GIT_ (as a signature
// built from "GIT_" + "AUTHOR" + "_NAME" would).
std::string git_environment_problem(const Source& from) {
  static const std::regex reads_git_env(R"re(getenv\s*\(\s*"GIT_)re"),
      reads_built_name(R"re(getenv\s*\(\s*[^"\s])re"), git_literal(R"re("GIT_)re"),
      sets_option(R"(git_libgit2_opts\s*\(\s*GIT_OPT_(SET|ENABLE))");
  if (from.layer == "git") return "";
  if (std::regex_search(from.text, reads_git_env) ||
      (std::regex_search(from.text, reads_built_name) && std::regex_search(from.text, git_literal)))
    return from.name + " reads a GIT_* variable outside git";
  if (std::regex_search(from.text, sets_option)) return from.name + " sets a libgit2 option outside git";
  return "";
}

std::vector<Source> sources(const Table& t) {
  std::vector<Source> out;
  for (const auto& e : fs::recursive_directory_iterator(kLibcheck / "src")) {
    if (!e.is_regular_file()) continue;
    auto rel = fs::relative(e.path(), kLibcheck / "src");
    std::string layer = rel.has_parent_path() ? rel.begin()->string() : "";
    out.push_back({"libcheck/src/" + rel.string(), e.path().filename().string(), layer, wstest::read_file(e.path())});
  }
  for (const auto& e : fs::directory_iterator(kLibcheck / "include" / "libcheck")) {
    auto base = e.path().filename().string();
    auto it = t.public_layer.find(base);
    out.push_back({"libcheck/include/libcheck/" + base, base, it == t.public_layer.end() ? "" : it->second,
                   wstest::read_file(e.path())});
  }
  return out;
}

std::vector<std::string> problems_of(const Table& t, const std::vector<Source>& all) {
  std::map<std::string, std::string> private_layer;
  for (const auto& s : all)
    if (s.name.rfind("libcheck/src/", 0) == 0) private_layer[s.base] = s.layer;
  std::vector<std::string> out;
  auto add = [&](std::string p) { if (!p.empty()) out.push_back(std::move(p)); };
  for (const auto& s : all) {
    if (!t.below.count(s.layer)) {
      out.push_back(s.name + " is in no layer of libcheck/layers.txt");
      continue;
    }
    for (const auto& name : includes_of(s.text, true)) {
      if (name.size() > 4 && name.substr(name.size() - 4) == ".inc") continue;
      std::string layer = layer_of(t, private_layer, s, name);
      add(layer_problem(t, s, name, layer));
      if (!layer.empty()) add(never_problem(s, name, layer));
    }
    for (const auto& name : includes_of(s.text, false)) add(system_never_problem(s, name));
    add(git_environment_problem(s));
  }
  return out;
}

}  // namespace

TEST_CASE("every include of libcheck keeps to its layer", "[layering]") {
  Table t = read_table(wstest::read_file(kLibcheck / "layers.txt"));
  REQUIRE(t.order.size() >= 8);
  auto all = sources(t);
  CHECK(all.size() > 100);
  for (const auto& p : problems_of(t, all)) FAIL_CHECK(p);
}

TEST_CASE("the layering scan would catch an upward include and each never", "[layering]") {
  // Guards the guard, on files made up here and the real table.
  Table t = read_table(wstest::read_file(kLibcheck / "layers.txt"));
  auto real = sources(t);
  auto with = [&](Source s) {
    auto all = real;
    all.push_back(std::move(s));
    auto ps = problems_of(t, all);
    return ps.empty() ? std::string() : ps.back();
  };
  CHECK(with({"libcheck/src/support/x.cpp", "x.cpp", "support", "#include \"compile_internal.h\"\n"}) ==
        "libcheck/src/support/x.cpp (support) includes 'compile_internal.h' of the higher layer compile");
  CHECK(with({"libcheck/src/model/x.cpp", "x.cpp", "model", "#include \"libcheck/repository.h\"\n"}) ==
        "libcheck/src/model/x.cpp (model) includes 'libcheck/repository.h' of the higher layer git");
  CHECK(with({"libcheck/src/support/x.cpp", "x.cpp", "support", "#include <nlohmann/json.hpp>\n"}) ==
        "libcheck/src/support/x.cpp includes <nlohmann/json.hpp>, which support never does");
  CHECK(with({"libcheck/src/render/x.cpp", "x.cpp", "render", "#include \"ts_util.h\"\n"}) ==
        "libcheck/src/render/x.cpp includes 'ts_util.h': render sees diagnostics only");
  CHECK(with({"libcheck/src/proposal/x.cpp", "x.cpp", "proposal", "#include \"libcheck/compile.h\"\n"}) ==
        "libcheck/src/proposal/x.cpp includes 'libcheck/compile.h': proposal reaches compile only through "
        "proposal_rebuild.cpp");
  CHECK(with({"libcheck/src/query/x.cpp", "x.cpp", "query", "void f() { git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, 1); }"}) ==
        "libcheck/src/query/x.cpp sets a libgit2 option outside git");
  CHECK(with({"libcheck/src/workspace/x.cpp", "x.cpp", "workspace", "auto e = getenv(\"GIT_DIR\");"}) ==
        "libcheck/src/workspace/x.cpp reads a GIT_* variable outside git");
  // The name built at run time, as a signature's once was, and read by
  // either call.
  CHECK(with({"libcheck/src/proposal/x.cpp", "x.cpp", "proposal",
              "std::string prefix = std::string(\"GIT_\") + who;\n"
              "const char* n = std::getenv((prefix + \"_NAME\").c_str());\n"}) ==
        "libcheck/src/proposal/x.cpp reads a GIT_* variable outside git");
  CHECK(with({"libcheck/src/compile/x.cpp", "x.cpp", "compile", "auto d = secure_getenv( \"GIT_AUTHOR_DATE\" );"}) ==
        "libcheck/src/compile/x.cpp reads a GIT_* variable outside git");
  CHECK(with({"libcheck/src/proposal/x.cpp", "x.cpp", "proposal",
              "const char* k = \"GIT_CONFIG\";\nconst char* v = ::getenv(k);\n"}) ==
        "libcheck/src/proposal/x.cpp reads a GIT_* variable outside git");
  // A literal name of another variable beside a message naming GIT_DIR is
  // no read of it; and git itself may read them.
  CHECK(with({"libcheck/src/support/x.cpp", "x.cpp", "support",
              "auto h = std::getenv(\"HOME\");\nauto m = \"GIT_DIR is ignored\";\n"}) == "");
  CHECK(with({"libcheck/src/git/x.cpp", "x.cpp", "git",
              "std::string n = std::string(\"GIT_\") + who;\nauto v = std::getenv(n.c_str());\n"}) == "");
  CHECK(with({"libcheck/src/query/x.cpp", "x.cpp", "query", "#include \"common/cli.h\"\n"}) ==
        "libcheck/src/query/x.cpp includes 'common/cli.h', no header of libcheck (tools are never included)");
  CHECK(with({"libcheck/src/x.cpp", "x.cpp", "", ""}) == "libcheck/src/x.cpp is in no layer of libcheck/layers.txt");
  CHECK(with({"libcheck/src/compile/x.cpp", "x.cpp", "compile", "#include \"definition_cache.h\"\n"}) == "");
}
