// ws-bench-stat: the floor of any listing that looks at each file on disk.
// Run inside a working tree:
//
//   ws-bench-stat THREADS
//
// Reads every folder beneath the current one (but .git) and lstats each
// file in it, the files split evenly over THREADS threads: the system calls
// ws-ls's status walk makes for its promises (each file's status, link
// count and size; bench/DIAGNOSES.md, diag-ls-view-20000), and nothing
// else. Prints the number of files stat'ed. bench/run times it beside
// `git ls-files -co --exclude-standard`, which reads the folders but stats
// no tracked file.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

struct File {
  int dir;  // the folder's descriptor, open until the end
  std::string name;
};

// Every file beneath `dir` (opened at `fd`), folders read one by one.
void collect(int fd, std::vector<File>& files) {
  DIR* d = ::fdopendir(fd);
  if (!d) return;
  std::vector<std::string> folders;
  while (const dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == ".." || name == ".git") continue;
    if (e->d_type == DT_DIR) folders.push_back(name);
    else files.push_back(File{fd, name});
  }
  for (const std::string& f : folders) {
    int sub = ::openat(fd, f.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub >= 0) collect(sub, files);
  }
  // `d` stays open: its descriptor is the files' folder.
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc == 2 ? std::atoi(argv[1]) : 0;
  if (threads < 1 || threads > 64) {
    std::fprintf(stderr, "usage: ws-bench-stat THREADS\n");
    return 2;
  }
  std::vector<File> files;
  collect(::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), files);
  std::vector<unsigned char> ok(files.size());
  auto stat_range = [&](std::size_t begin, std::size_t end) {
    struct stat st;
    for (std::size_t i = begin; i < end; ++i)
      ok[i] = ::fstatat(files[i].dir, files[i].name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  };
  std::vector<std::thread> helpers;
  const std::size_t share = (files.size() + threads - 1) / threads;
  for (int t = 1; t < threads; ++t)
    helpers.emplace_back(stat_range, std::min(files.size(), t * share), std::min(files.size(), (t + 1) * share));
  stat_range(0, std::min(files.size(), share));
  for (auto& h : helpers) h.join();
  std::printf("%zu files stat'ed\n", static_cast<std::size_t>(std::count(ok.begin(), ok.end(), 1)));
  return 0;
}
