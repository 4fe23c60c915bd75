// The tools never run a shell or another program and have no network code
// (README.md, "Path policy"). This test reads the sources of libcheck and the tools and
// fails on any call that would do either.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/source_scan.h"

namespace fs = std::filesystem;

namespace {

// The first forbidden call in `src` (after comments and strings are blanked: they may name
// these functions; calls may not), or "".
std::string find_forbidden_call(const std::string& src) {
  static const std::regex forbidden(
      R"(\b(system|popen|posix_spawnp?|execl|execlp|execle|execv|execvp|execvpe|execve|fexecve|fork|vfork|socket|connect|bind|listen|accept|getaddrinfo|gethostbyname)\s*\()");
  std::string code = wstest::strip_comments(src, wstest::Literals::blank);
  std::smatch m;
  return std::regex_search(code, m, forbidden) ? m.str() : "";
}

}  // namespace

TEST_CASE("no source of libcheck or the tools runs a program or opens a socket", "[safety]") {
  std::size_t files = 0;
  for (const char* dir : {"libcheck", "tools"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(WS_SOURCE_DIR) / dir)) {
      auto ext = entry.path().extension();
      if (ext != ".cpp" && ext != ".h" && ext != ".hpp") continue;
      ++files;
      INFO(entry.path().string());
      CHECK(find_forbidden_call(wstest::read_file(entry.path())) == "");
    }
  }
  CHECK(files > 20);
}

TEST_CASE("the no-shell scan would catch a call", "[safety]") {
  // Guards the guard: the scanner finds what it must and ignores the rest.
  CHECK(find_forbidden_call("int main() { system (\"ls\"); }") == "system (");
  CHECK(find_forbidden_call("auto s = socket(AF_INET, SOCK_STREAM, 0);") == "socket(");
  CHECK(find_forbidden_call("pid_t p = fork();") == "fork(");
  CHECK(find_forbidden_call("execvp(argv[0], argv);") == "execvp(");
  CHECK(find_forbidden_call("int filesystem(int);") == "");
  CHECK(find_forbidden_call("// system(\"x\") in a comment") == "");
  CHECK(find_forbidden_call("auto s = \"popen(\";") == "");
}
