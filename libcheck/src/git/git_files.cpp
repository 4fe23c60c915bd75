#include "git_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "git_util.h"
#include "home_directory.h"

namespace ws::detail {

namespace {

const char* file_type_name(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISLNK(mode)) return "a symlink";
  return "not a regular file";
}

Error refused_file(const std::string& path, const char* what) {
  return make_error(Errc::environment,
                    "refused '" + path + "': " + what + " where git reads a regular file; remove it or replace it with a file",
                    path);
}

std::string with_slash(std::string dir) {
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir;
}

// The text of a small regular file, read without blocking; "" otherwise.
std::string small_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return "";
  struct stat st;
  std::string out;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 4096) {
    out.resize(static_cast<std::size_t>(st.st_size));
    ssize_t n = ::read(fd, out.data(), out.size());
    out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  }
  ::close(fd);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string home_dir() { return git_home_directory(); }

// $XDG_CONFIG_HOME/git/NAME, or ~/.config/git/NAME, as git looks them up.
std::string xdg_git_file(const char* name) {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return with_slash(xdg) + "git/" + name;
  std::string home = home_dir();
  return home.empty() ? "" : with_slash(home) + ".config/git/" + name;
}

Status check_all(const std::vector<std::string>& paths) {
  for (const auto& p : paths)
    if (!p.empty())
      if (auto st = require_regular_file(p); !st) return st;
  return Ok{};
}

}  // namespace

Status require_regular_file(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return Ok{};
  return refused_file(path, file_type_name(st.st_mode));
}

Status require_regular_ignore_file(unsigned char type, std::string_view rel) {
  if (type == DT_REG) return Ok{};
  const char* what = type == DT_FIFO   ? "a FIFO"
                     : type == DT_SOCK ? "a socket"
                     : type == DT_CHR  ? "a character device"
                     : type == DT_BLK  ? "a block device"
                     : type == DT_LNK  ? "a symlink"
                     : type == DT_DIR  ? "a folder"
                                       : "not a regular file";
  if (type == DT_DIR) return Ok{};  // git reads no rules from a folder of that name, nor blocks on one
  return make_error(Errc::environment,
                    "refused path '" + std::string(rel) + "': " + what +
                        " where git reads ignore rules from a regular file; remove it or replace it with a file",
                    std::string(rel));
}

Status check_global_config_files() {
  std::vector<std::string> paths;
  std::string home = home_dir();
  if (!home.empty()) paths.push_back(with_slash(home) + ".gitconfig");
  paths.push_back(xdg_git_file("config"));
  paths.push_back("/etc/gitconfig");
  return check_all(paths);
}

Status check_config_files(const std::string& git_dir) {
  std::string dir = with_slash(git_dir);
  std::vector<std::string> paths{dir + "config", dir + "config.worktree", dir + "commondir", dir + "HEAD"};
  // A linked worktree's git dir names the shared one in its commondir file.
  if (std::string common = small_file(dir + "commondir"); !common.empty()) {
    std::string shared = common[0] == '/' ? with_slash(common) : dir + with_slash(common);
    paths.push_back(shared + "config");
  }
  return check_all(paths);
}

Status check_repository_files(git_repository* repo) {
  std::string common = with_slash(git_repository_commondir(repo));
  std::vector<std::string> paths{common + "info/exclude", common + "info/attributes", common + "packed-refs"};
  if (git_repository_is_bare(repo) != 1) {
    const char* env = std::getenv("GIT_INDEX_FILE");
    paths.push_back(env && *env ? env : with_slash(git_repository_path(repo)) + "index");
  }
  git_config* raw = nullptr;
  std::string excludes = xdg_git_file("ignore");
  if (git_repository_config_snapshot(&raw, repo) == 0) {
    git::Config cfg(raw);
    git_buf buf = GIT_BUF_INIT;
    if (git_config_get_path(&buf, cfg.get(), "core.excludesfile") == 0 && buf.ptr) excludes = buf.ptr;
    git_buf_dispose(&buf);
    buf = GIT_BUF_INIT;
    if (git_config_get_path(&buf, cfg.get(), "core.attributesfile") == 0 && buf.ptr) paths.push_back(buf.ptr);
    git_buf_dispose(&buf);
  }
  git::clear_error();
  paths.push_back(excludes);
  paths.push_back(xdg_git_file("attributes"));
  return check_all(paths);
}

}  // namespace ws::detail
