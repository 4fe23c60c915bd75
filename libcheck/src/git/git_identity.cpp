// The author and committer of a commit ws writes (git_identity.h).
#include "git_identity.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

namespace ws::git {

namespace {

// "AUTHOR" or "COMMITTER": the middle of the variables' names.
const char* variable_part(Identity who) { return who == Identity::author ? "AUTHOR" : "COMMITTER"; }
const char* role_name(Identity who) { return who == Identity::author ? "author" : "committer"; }

// GIT_<WHO>_<field>, or "" when unset.
std::string identity_variable(Identity who, const char* field) {
  std::string name = std::string("GIT_") + variable_part(who) + "_" + field;
  const char* value = std::getenv(name.c_str());
  return value ? value : "";
}

bool parse_date(const std::string& s, git_time_t& when, int& offset) {
  if (s.empty()) return false;
  if (s[0] == '@') {
    char* end = nullptr;
    long long secs = std::strtoll(s.c_str() + 1, &end, 10);
    if (end == s.c_str() + 1) return false;
    when = secs;
    offset = 0;
    while (*end == ' ') ++end;
    if ((*end == '+' || *end == '-') && std::strlen(end) >= 5) {
      int hh = (end[1] - '0') * 10 + (end[2] - '0'), mm = (end[3] - '0') * 10 + (end[4] - '0');
      offset = (hh * 60 + mm) * (*end == '-' ? -1 : 1);
    }
    return true;
  }
  std::tm tm{};
  if (strptime(s.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm) == nullptr) return false;
  when = timegm(&tm);
  offset = 0;
  return true;
}

std::string config_string(git_repository* repo, const char* key) {
  git_config* raw = nullptr;
  if (git_repository_config_snapshot(&raw, repo) < 0) return "";
  Config cfg(raw);
  const char* value = nullptr;
  if (git_config_get_string(&value, cfg.get(), key) < 0 || !value) return "";
  return value;
}

bool has_control(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

}  // namespace

Result<Signature> identity_signature(git_repository* repo, Identity who) {
  const std::string prefix = std::string("GIT_") + variable_part(who);
  std::string name = identity_variable(who, "NAME");
  std::string email = identity_variable(who, "EMAIL");
  if (name.empty()) name = config_string(repo, "user.name");
  if (email.empty()) email = config_string(repo, "user.email");
  if (name.empty() || email.empty())
    return make_error(Errc::environment, std::string("no ") + role_name(who) +
                                             " identity: set user.name and user.email (git config) or " + prefix +
                                             "_NAME and " + prefix + "_EMAIL");
  if (has_control(name) || has_control(email))
    return make_error(Errc::environment, std::string("invalid ") + role_name(who) +
                                             " identity: a control character in its name or e-mail (" + prefix +
                                             "_NAME, " + prefix + "_EMAIL, user.name, user.email)");
  git_time_t when = std::time(nullptr);
  int offset = 0;
  parse_date(identity_variable(who, "DATE"), when, offset);
  git_signature* sig = nullptr;
  if (git_signature_new(&sig, name.c_str(), email.c_str(), when, offset) < 0)
    return error(Errc::environment, "invalid identity '" + name + " <" + email + ">'");
  return Signature(sig);
}

}  // namespace ws::git
