// The home directory the tools refuse as a workspace root (ws(7),
// ENVIRONMENT): HOME when it is an absolute path, else the password
// database's entry for the effective user; git's own lookups use HOME only.
#include <catch2/catch.hpp>

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "home_directory.h"

namespace {

// Sets (or unsets, with nullopt) HOME for one scope.
class HomeVariable {
 public:
  explicit HomeVariable(const std::optional<std::string>& value) {
    if (const char* old = std::getenv("HOME")) old_ = old;
    if (value) ::setenv("HOME", value->c_str(), 1);
    else ::unsetenv("HOME");
  }
  ~HomeVariable() {
    if (old_) ::setenv("HOME", old_->c_str(), 1);
    else ::unsetenv("HOME");
  }

 private:
  std::optional<std::string> old_;
};

std::string passwd_home() {
  const struct passwd* pw = ::getpwuid(::geteuid());
  return pw && pw->pw_dir ? pw->pw_dir : "";
}

}  // namespace

TEST_CASE("home directory: HOME when absolute, else the password database", "[home]") {
  const std::string from_passwd = passwd_home();
  if (from_passwd.empty()) WARN("the effective user has no password database entry here");
  {
    HomeVariable home("/srv/some where");
    CHECK(ws::detail::home_directory() == "/srv/some where");
    CHECK(ws::detail::git_home_directory() == "/srv/some where");
  }
  {
    HomeVariable home(std::nullopt);
    CHECK(ws::detail::home_directory() == from_passwd);
    CHECK(ws::detail::git_home_directory() == "");
  }
  for (const std::string value : {"", ".", "relative/home", "~"}) {
    INFO("HOME='" << value << "'");
    HomeVariable home(value);
    CHECK(ws::detail::home_directory() == from_passwd);
    CHECK(ws::detail::git_home_directory() == value);
  }
}
