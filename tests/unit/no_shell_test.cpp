// The tools never run a shell or another program and have no network code
// (README.md, "Path policy"). This test reads the sources of libcheck and the tools and
// fails on any call that would do either.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Comments and string literals may name these functions; calls may not.
std::string strip_comments_and_strings(const std::string& src) {
  std::string out;
  out.reserve(src.size());
  enum { code, line_comment, block_comment, str, chr } st = code;
  for (std::size_t i = 0; i < src.size(); ++i) {
    char c = src[i], n = i + 1 < src.size() ? src[i + 1] : '\0';
    switch (st) {
      case code:
        if (c == '/' && n == '/') { st = line_comment; ++i; }
        else if (c == '/' && n == '*') { st = block_comment; ++i; }
        else if (c == '"') { st = str; out += ' '; }
        else if (c == '\'') { st = chr; out += ' '; }
        else out += c;
        break;
      case line_comment: if (c == '\n') { st = code; out += '\n'; } break;
      case block_comment: if (c == '*' && n == '/') { st = code; ++i; } break;
      case str: if (c == '\\') ++i; else if (c == '"') st = code; break;
      case chr: if (c == '\\') ++i; else if (c == '\'') st = code; break;
    }
  }
  return out;
}

// The first forbidden call in `src` (after comments and strings are blanked), or "".
std::string find_forbidden_call(const std::string& src) {
  static const std::regex forbidden(
      R"(\b(system|popen|posix_spawnp?|execl|execlp|execle|execv|execvp|execvpe|execve|fexecve|fork|vfork|socket|connect|bind|listen|accept|getaddrinfo|gethostbyname)\s*\()");
  std::string code = strip_comments_and_strings(src);
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
      CHECK(find_forbidden_call(slurp(entry.path())) == "");
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
