// Temporary directories and real git repositories for tests.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "support/process.h"

namespace wstest {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A git repository made with the real git, with a fixed identity and dates
// so commit ids are reproducible within a test.
class TempRepo {
 public:
  TempRepo();  // `git init -b main`
  const std::string& path() const { return dir_.path(); }
  std::string abs(const std::string& rel) const { return path() + "/" + rel; }

  // Writes a file (creating parent directories).
  void write(const std::string& rel, const std::string& bytes) const;
  std::string read(const std::string& rel) const;
  void remove(const std::string& rel) const;
  bool exists(const std::string& rel) const;
  // Replaces the first `from` in the file `rel` with `to`; throws (failing
  // the test) when the file does not hold `from`.
  void replace(const std::string& rel, const std::string& from, const std::string& to) const;

  // Runs git in the repository; throws (failing the test) on a non-zero exit
  // unless `check` is false. Returns stdout.
  std::string git(const std::vector<std::string>& args, bool check = true) const;
  RunResult git_result(const std::vector<std::string>& args) const;
  // git add -A && git commit -m MSG; returns the new commit id.
  std::string commit_all(const std::string& message) const;

 private:
  TempDir dir_;
};

// Trims one trailing newline.
std::string chomp(std::string s);
// Splits on '\n', dropping a final empty piece.
std::vector<std::string> lines(const std::string& s);
// The lines of `text` sorted bytewise, each ending in '\n'.
std::string sorted_lines(const std::string& text);

}  // namespace wstest

namespace wstest {
// Copies the bundled example workspace (examples/workspace) into `repo`.
void copy_example_workspace(const TempRepo& repo);
// Copies the example workspace into `repo`, with `config` as its
// .ws/config.json unless it is empty, and commits it all with `message`:
// the commit's id.
std::string commit_example_workspace(const TempRepo& repo, const std::string& message,
                                     const std::string& config = "");

// Every file of the working tree of `repo` (outside .git) and its bytes; a
// symbolic link as "-> TARGET".
std::map<std::string, std::string> tree_bytes(const TempRepo& repo);

// Runs ws-build with `args` in `repo`, as ws() runs a tool: it must exit with
// `status` and print `out` exactly, with nothing on stderr. Returns the run,
// for the checks a test adds.
RunResult check_build(const TempRepo& repo, const std::vector<std::string>& args, int status,
                      const std::string& out);
}  // namespace wstest
