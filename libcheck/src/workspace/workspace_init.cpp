#include "libcheck/workspace_init.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "home_directory.h"
#include "libcheck/kinds.h"
#include "libcheck/repository.h"
#include "libcheck/workspace_root.h"

namespace ws {

namespace {

constexpr const char* kConfig = ".ws/config.json";
constexpr const char* kConfigText = "{}\n";

// An owned file descriptor.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// ".ws/", then every kind folder, each once, sorted.
std::vector<std::string> wanted_folders(const KindPack& pack) {
  std::set<std::string> dirs{".ws/"};
  for (const auto& k : pack.kinds()) dirs.insert(k.dir);
  return {dirs.begin(), dirs.end()};
}

// "access/groups/" -> {"access/", "access/groups/"}
std::vector<std::string> prefixes(const std::string& dir) {
  std::vector<std::string> out;
  for (std::size_t slash = dir.find('/'); slash != std::string::npos; slash = dir.find('/', slash + 1))
    out.push_back(dir.substr(0, slash + 1));
  return out;
}

const char* what_is(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISREG(mode)) return "a file";
  return "a special file";
}

// The folders to make, parents first; refused when something that is not a
// folder stands where one goes. Links are never followed (fstatat with
// AT_SYMLINK_NOFOLLOW), so a link cannot send a folder out of the worktree.
Result<std::vector<std::string>> plan_folders(int root, const std::vector<std::string>& wanted,
                                              std::vector<std::string>& kept) {
  std::vector<std::string> make;
  std::set<std::string> seen;
  for (const auto& dir : wanted) {
    auto steps = prefixes(dir);
    for (const auto& p : steps) {
      if (!seen.insert(p).second) continue;
      std::string name = p.substr(0, p.size() - 1);
      struct stat st;
      if (::fstatat(root, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISDIR(st.st_mode)) continue;
        return make_error(Errc::refused,
                          "refused to init: '" + name + "' is " + what_is(st.st_mode) +
                              " where ws init makes a folder; move it away and run 'ws init' again",
                          name, Rule::not_a_folder);
      }
      if (errno != ENOENT)
        return make_error(Errc::environment, "cannot check '" + name + "': " + std::strerror(errno), name);
      make.push_back(p);
    }
    bool existed = std::none_of(steps.begin(), steps.end(), [&](const std::string& p) {
      return std::find(make.begin(), make.end(), p) != make.end();
    });
    if (existed && dir != ".ws/") kept.push_back(dir);
  }
  return make;
}

Status refuse_existing_config(int root) {
  struct stat st;
  if (::fstatat(root, kConfig, &st, AT_SYMLINK_NOFOLLOW) == 0)
    return make_error(Errc::refused,
                      std::string("refused to init: '") + kConfig +
                          "' exists already; ws init never overwrites it (edit it, see ws(7))",
                      kConfig, Rule::exists);
  if (errno != ENOENT && errno != ENOTDIR)
    return make_error(Errc::environment, std::string("cannot check '") + kConfig + "': " + std::strerror(errno),
                      kConfig);
  return Ok{};
}

// Removes the folders made so far, last first; they are empty.
void undo(int root, const std::vector<std::string>& made) {
  for (auto it = made.rbegin(); it != made.rend(); ++it)
    ::unlinkat(root, it->substr(0, it->size() - 1).c_str(), AT_REMOVEDIR);
}

// Writes the config beneath the root with O_EXCL: never over a file that
// appeared since the check, never through a link.
Status write_config(int root) {
  Fd dir(::openat(root, ".ws", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.fd < 0) return make_error(Errc::environment, std::string("cannot open '.ws': ") + std::strerror(errno), ".ws");
  Fd f(::openat(dir.fd, "config.json", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (f.fd < 0) {
    int e = errno;
    if (e == EEXIST)
      return make_error(Errc::refused, std::string("refused to init: '") + kConfig + "' appeared meanwhile", kConfig);
    return make_error(Errc::environment, std::string("cannot write '") + kConfig + "': " + std::strerror(e), kConfig);
  }
  std::size_t len = std::strlen(kConfigText);
  if (::write(f.fd, kConfigText, len) != static_cast<ssize_t>(len) || ::fsync(f.fd) != 0) {
    int e = errno;
    ::unlinkat(dir.fd, "config.json", 0);
    return make_error(Errc::environment, std::string("cannot write '") + kConfig + "': " + std::strerror(e), kConfig);
  }
  return Ok{};
}

Status make_folders(int root, const std::vector<std::string>& folders, std::vector<std::string>& made) {
  for (const auto& p : folders) {
    std::string name = p.substr(0, p.size() - 1);
    if (::mkdirat(root, name.c_str(), 0755) != 0)
      return make_error(Errc::environment, "cannot make folder '" + name + "': " + std::strerror(errno), name);
    made.push_back(p);
  }
  return Ok{};
}

Result<WorkspaceRoot> open_root(const std::string& dir) {
  auto repo = Repository::open(dir);
  if (!repo) return repo.error();
  if (repo->is_bare())
    return make_error(Errc::environment,
                      "cannot init a bare repository: run 'ws init' in a worktree (see git-worktree(1))", dir);
  std::string workdir = repo->workdir();
  return WorkspaceRoot::open(workdir, detail::home_directory());
}

}  // namespace

Result<InitResult> init_workspace(const std::string& dir, const std::string& kinds_dir) {
  auto root = open_root(dir);
  if (!root) return root.error();
  auto pack = KindPack::load(kinds_dir);
  if (!pack) return pack.error();
  Fd fd(::open(root->path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.fd < 0)
    return make_error(Errc::environment, "cannot open '" + root->path() + "': " + std::strerror(errno), root->path());
  if (auto same = root->verify_unchanged(); !same) return same.error();

  InitResult out;
  out.root = root->path();
  out.config = kConfig;
  if (auto none = refuse_existing_config(fd.fd); !none) return none.error();
  auto plan = plan_folders(fd.fd, wanted_folders(*pack), out.kept);
  if (!plan) return plan.error();

  Status written = make_folders(fd.fd, *plan, out.created);
  if (written) written = write_config(fd.fd);
  if (!written) {
    undo(fd.fd, out.created);
    return written.error();
  }
  return out;
}

}  // namespace ws
