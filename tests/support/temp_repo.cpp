#include "support/temp_repo.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <stdlib.h>

namespace fs = std::filesystem;

namespace wstest {

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "ws-test.XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = fs::canonical(tmpl).string();
}

TempDir::~TempDir() {
  std::error_code ec;
  // Tests make read-only and odd files; make everything removable first.
  for (auto it = fs::recursive_directory_iterator(path_, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (!it->is_symlink(ec)) fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  }
  fs::remove_all(path_, ec);
}

static RunOptions git_env(const std::string& cwd) {
  RunOptions o;
  o.cwd = cwd;
  o.env = {{"GIT_AUTHOR_NAME", "Ada Author"},       {"GIT_AUTHOR_EMAIL", "ada@example.com"},
           {"GIT_COMMITTER_NAME", "Carl Committer"}, {"GIT_COMMITTER_EMAIL", "carl@example.com"},
           {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"}, {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"},
           {"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}};
  o.unset_env = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"};
  return o;
}

TempRepo::TempRepo() {
  git({"init", "-q", "-b", "main"});
  git({"config", "user.name", "Ada Author"});
  git({"config", "user.email", "ada@example.com"});
}

void TempRepo::write(const std::string& rel, const std::string& bytes) const {
  fs::path p = fs::path(path()) / rel;
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("write failed: " + rel);
}

void TempRepo::replace(const std::string& rel, const std::string& from, const std::string& to) const {
  std::string text = read(rel);
  auto at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("'" + rel + "' does not hold '" + from + "'");
  write(rel, text.replace(at, from.size(), to));
}

std::string TempRepo::read(const std::string& rel) const {
  std::ifstream f(fs::path(path()) / rel, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void TempRepo::remove(const std::string& rel) const { fs::remove(fs::path(path()) / rel); }

bool TempRepo::exists(const std::string& rel) const {
  std::error_code ec;
  return fs::exists(fs::symlink_status(fs::path(path()) / rel, ec));
}

RunResult TempRepo::git_result(const std::vector<std::string>& args) const {
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, git_env(path()));
}

std::string TempRepo::git(const std::vector<std::string>& args, bool check) const {
  RunResult r = git_result(args);
  if (check && r.status != 0) {
    std::string cmd;
    for (auto& a : args) cmd += " " + a;
    throw std::runtime_error("git" + cmd + " failed: " + r.err);
  }
  return r.out;
}

std::string TempRepo::commit_all(const std::string& message) const {
  git({"add", "-A"});
  git({"commit", "-q", "--allow-empty", "-m", message});
  return chomp(git({"rev-parse", "HEAD"}));
}

std::string chomp(std::string s) {
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    auto nl = s.find('\n', start);
    if (nl == std::string::npos) { out.push_back(s.substr(start)); break; }
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

}  // namespace wstest

namespace wstest {
void copy_example_workspace(const TempRepo& repo) {
  fs::path src = fs::path(WS_SOURCE_DIR) / "examples" / "workspace";
  fs::copy(src, repo.path(), fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}
std::string commit_example_workspace(const TempRepo& repo, const std::string& message, const std::string& config) {
  copy_example_workspace(repo);
  if (!config.empty()) repo.write(".ws/config.json", config);
  return repo.commit_all(message);
}
RunResult check_build(const TempRepo& repo, const std::vector<std::string>& args, int status,
                      const std::string& out) {
  auto r = ws("ws-build", args, repo.path());
  CHECK(r.err == "");
  CHECK(r.out == out);
  CHECK(r.status == status);
  return r;
}
std::string sorted_lines(const std::string& text) {
  auto v = lines(text);
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto& l : v) out += l + "\n";
  return out;
}

std::map<std::string, std::string> tree_bytes(const TempRepo& repo) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(repo.path()); it != fs::recursive_directory_iterator(); ++it) {
    std::string rel = fs::relative(it->path(), repo.path()).string();
    if (rel == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink()) out[rel] = "-> " + fs::read_symlink(it->path()).string();
    else if (it->is_regular_file()) out[rel] = repo.read(rel);
  }
  return out;
}

}  // namespace wstest
