#include "home_directory.h"

#include <cerrno>
#include <cstdlib>
#include <vector>

#include <pwd.h>
#include <unistd.h>

namespace ws::detail {

namespace {

// The effective user's home directory from the password database; "" when
// the user has no entry (a uid with no name, as in some containers).
std::string passwd_home() {
  long hint = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buffer(hint > 0 ? static_cast<std::size_t>(hint) : 4096);
  for (;;) {
    struct passwd entry;
    struct passwd* found = nullptr;
    int rc = ::getpwuid_r(::geteuid(), &entry, buffer.data(), buffer.size(), &found);
    if (rc == ERANGE && buffer.size() < (1u << 20)) {
      buffer.resize(buffer.size() * 2);
      continue;
    }
    if (rc != 0 || !found || !found->pw_dir) return "";
    return found->pw_dir;
  }
}

}  // namespace

std::string home_directory() {
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return home;
  return passwd_home();
}

std::string git_home_directory() {
  const char* home = std::getenv("HOME");
  return home ? home : "";
}

}  // namespace ws::detail
