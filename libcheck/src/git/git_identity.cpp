// The author and committer of a commit ws writes (git_identity.h).
#include "git_identity.h"

#include "printable_path.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

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

// The zone that ends a date: "Z", "+hhmm" or "+hh:mm", as minutes east of
// UTC; nullopt for anything else.
std::optional<int> parse_zone(std::string_view z) {
  if (z == "Z" || z == "z") return 0;
  std::string digits;
  if (z.size() == 5) digits = z.substr(1);
  if (z.size() == 6 && z[3] == ':') digits = std::string(z.substr(1, 2)) + std::string(z.substr(4, 2));
  if (digits.size() != 4 || (z[0] != '+' && z[0] != '-')) return std::nullopt;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  int hh = (digits[0] - '0') * 10 + (digits[1] - '0'), mm = (digits[2] - '0') * 10 + (digits[3] - '0');
  if (hh > 14 || mm > 59) return std::nullopt;
  return (hh * 60 + mm) * (z[0] == '-' ? -1 : 1);
}

// The fields strptime filled, at `zone` minutes east of UTC, or in the local
// time zone when the date named none (as git reads such a date).
GitDate at_zone(std::tm tm, std::optional<int> zone) {
  if (zone) return GitDate{static_cast<git_time_t>(timegm(&tm)) - *zone * 60, *zone};
  tm.tm_isdst = -1;
  git_time_t when = std::mktime(&tm);
  return GitDate{when, static_cast<int>(tm.tm_gmtoff / 60)};
}

// What follows a date's time: nothing (local time), or optional blanks and
// a zone. False when anything else is left.
bool zone_after(const char* rest, std::optional<int>& zone) {
  while (*rest == ' ') ++rest;
  if (!*rest) return true;
  zone = parse_zone(rest);
  return zone.has_value();
}

// git's internal format: "<seconds> +hhmm", "<seconds>", "@<seconds> [+hhmm]".
std::optional<GitDate> parse_raw_date(std::string_view s) {
  if (!s.empty() && s[0] == '@') s.remove_prefix(1);
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0 || digits > 12) return std::nullopt;
  git_time_t when = std::stoll(std::string(s.substr(0, digits)));
  std::string_view rest = s.substr(digits);
  while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  if (rest.empty()) return GitDate{when, 0};
  auto zone = parse_zone(rest);
  if (!zone || rest == "Z" || rest == "z") return std::nullopt;
  return GitDate{when, *zone};
}

// RFC 2822: "[Thu, ]07 Apr 2005 22:13[:13] +0200", the zone required.
std::optional<GitDate> parse_rfc2822_date(const std::string& s) {
  const char* p = s.c_str();
  if (const char* comma = std::strchr(p, ',')) p = comma + 1;
  while (*p == ' ') ++p;
  for (const char* format : {"%d %b %Y %H:%M:%S", "%d %b %Y %H:%M"}) {
    std::tm tm{};
    const char* rest = strptime(p, format, &tm);
    std::optional<int> zone;
    if (rest && (*rest == ' ' || !*rest) && zone_after(rest, zone) && zone) return at_zone(tm, zone);
  }
  return std::nullopt;
}

// ISO 8601: "2005-04-07T22:13:13" (or a blank for the T), optional
// fractional seconds (dropped, as git does) and an optional zone.
std::optional<GitDate> parse_iso_date(const std::string& s) {
  for (const char* format : {"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"}) {
    std::tm tm{};
    const char* rest = strptime(s.c_str(), format, &tm);
    if (!rest) continue;
    if (*rest == '.' || *rest == ',') {
      ++rest;
      if (*rest < '0' || *rest > '9') return std::nullopt;
      while (*rest >= '0' && *rest <= '9') ++rest;
    }
    std::optional<int> zone;
    if (zone_after(rest, zone)) return at_zone(tm, zone);
    return std::nullopt;
  }
  return std::nullopt;
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

std::optional<GitDate> parse_git_date(const std::string& text) {
  if (auto raw = parse_raw_date(text)) return raw;
  if (auto rfc = parse_rfc2822_date(text)) return rfc;
  return parse_iso_date(text);
}

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
  GitDate date{static_cast<git_time_t>(std::time(nullptr)), 0};
  if (std::string value = identity_variable(who, "DATE"); !value.empty()) {
    auto parsed = parse_git_date(value);
    if (!parsed)
      return make_error(Errc::environment, "invalid date in " + prefix + "_DATE: '" + detail::printable_path(value) +
                                               "'; use '<seconds> +hhmm', RFC 2822 or ISO 8601, as git does");
    date = *parsed;
  }
  git_signature* sig = nullptr;
  if (git_signature_new(&sig, name.c_str(), email.c_str(), date.when, date.offset) < 0)
    return error(Errc::environment, "invalid identity '" + name + " <" + email + ">'");
  return Signature(sig);
}

}  // namespace ws::git
