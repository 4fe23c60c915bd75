// No function of libcheck or the tools runs over 80 lines without a reason in a
// `long-function:` comment (docs/architecture.md, "Short functions"). The measure is
// tools/dev/function-lengths, run here on the sources and on a tree made to fool it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;

namespace {

const std::string kScript = std::string(WS_SOURCE_DIR) + "/tools/dev/function-lengths";

// A fixture source, line by line, that remembers where each function starts.
struct Source {
  std::string text;
  int lines = 0;

  int add(const std::string& line) {
    text += line + "\n";
    return ++lines;
  }
  // `count` statement lines of a body.
  void body(int count) {
    for (int i = 0; i < count; ++i) add("  x += 1;");
  }
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("every function of libcheck and the tools is short or says why it is long",
          "[function-lengths]") {
  REQUIRE(fs::exists("/usr/bin/ctags"));  // universal-ctags, installed by ./dev
  auto r = wstest::run({kScript});
  INFO(r.out << r.err);
  CHECK(r.err == "");
  CHECK(r.out.rfind("functions over 80 lines: 0\n", 0) == 0);
  CHECK(r.status == 0);
}

TEST_CASE("the function-lengths scan sees through braces in literals, initializers and operators",
          "[function-lengths]") {
  REQUIRE(fs::exists("/usr/bin/ctags"));
  wstest::TempDir dir;
  Source s;
  s.add("// braces in a string, a character, a raw string and a comment: }");
  s.add("int short_one() {");
  s.add("  const char* s = \"}}}\";  // }");
  s.add("  char c = '{';");
  s.add("  const char* r = R\"x( }}} )x\";");
  s.add("  return 1'000 + s[0] + c + r[0];");
  s.add("}");
  s.add("int exactly_80() {");
  s.body(78);
  s.add("}");
  int too_long = s.add("int too_long() {");
  s.add("  const char* r = R\"x({{{)x\";  /* { */");
  s.body(78);
  s.add("}");
  s.add("struct Widget { Widget(); Widget& operator=(const Widget&); int a_, b_; };");
  int ctor = s.add("Widget::Widget() : a_{1}, b_{2} {");
  s.body(80);
  s.add("}");
  int assign = s.add("Widget& Widget::operator=(const Widget&) {");
  s.body(79);
  s.add("}");
  s.add("// Every case, one a line.");
  s.add("// long-function: a flat table of every case reads best whole");
  s.add("template <typename T>");
  s.add("static int");
  int table = s.add("table(T x) {");
  s.body(88);
  s.add("}");
  s.add("// no reason given: the mark must carry one");
  s.add("// long-function:");
  int bare = s.add("int bare() {");
  s.body(80);
  s.add("}");
  write(fs::path(dir.path()) / "libcheck/src/a.cpp", s.text);
  write(fs::path(dir.path()) / "tools/t/main.cpp", "int main() { return 0; }\n");

  auto r = wstest::run({kScript, "--root", dir.path()});
  auto at = [](int line) { return "libcheck/src/a.cpp:" + std::to_string(line); };
  CHECK(r.err == "");
  CHECK(r.out == "functions over 80 lines: 4\n"
                 "  82 " + at(ctor) + " Widget\n"
                 "  82 " + at(bare) + " bare\n"
                 "  81 " + at(too_long) + " too_long\n"
                 "  81 " + at(assign) + " operator =\n"
                 "kept long with a reason (long-function:): 1\n"
                 "  90 " + at(table) + " table: a flat table of every case reads best whole\n");
  CHECK(r.status == 1);

  auto wider = wstest::run({kScript, "--root", dir.path(), "--max", "90"});
  CHECK(wider.out == "functions over 90 lines: 0\nkept long with a reason (long-function:): 0\n");
  CHECK(wider.status == 0);
}
