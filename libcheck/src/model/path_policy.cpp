// Path policy (ws(7), PATH POLICY): each rule is a predicate over the raw bytes of
// a path; a policy picks which optional rules apply. Nothing is normalised or
// repaired: a path that needs fixing is refused with a message saying how.
#include "libcheck/path_policy.h"

#include <algorithm>
#include <array>
#include <string>

#include "ascii_case.h"
#include "printable_path.h"

namespace ws {

namespace {

constexpr size_t kMaxPathBytes = 4096;      // PATH_MAX on Linux
constexpr size_t kMaxComponentBytes = 255;  // NAME_MAX on Linux, and NTFS's limit

using detail::ascii_lower;
using detail::iequals_ascii;
using detail::istarts_with_ascii;

bool is_sep(char c) { return c == '/' || c == '\\'; }

bool is_ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Calls f(component) for each '/'-separated piece, stopping when f returns true.
template <class F>
bool any_component(std::string_view path, F f) {
  size_t start = 0;
  for (;;) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) return f(path.substr(start));
    if (f(path.substr(start, end - start))) return true;
    start = end + 1;
  }
}

bool is_dot(std::string_view c) { return c == "." || c == ".."; }

// What follows a name on NTFS: dots and spaces (which Windows drops), then
// the end of the component, a backslash (a separator there) or a ':' that
// starts an alternate data stream (".git::$INDEX_ALLOCATION" is the
// directory itself, ".git:x" a stream of it).
enum class NtfsTail { none, end, stream };

NtfsTail ntfs_tail(std::string_view c, size_t i) {
  while (i < c.size() && (c[i] == '.' || c[i] == ' ')) ++i;
  if (i == c.size()) return NtfsTail::end;
  return c[i] == ':' || is_sep(c[i]) ? NtfsTail::stream : NtfsTail::none;
}

// How `c` spells `name` on NTFS, in any case and with any such tail.
NtfsTail ntfs_spelling(std::string_view c, std::string_view name) {
  return istarts_with_ascii(c, name) ? ntfs_tail(c, name.size()) : NtfsTail::none;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_hex_digit(char c) { return is_digit(c) || (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'f'); }

// Past "~N" (N from 1, any number of digits) at `i`; npos when not there.
size_t past_tilde_number(std::string_view c, size_t i) {
  if (i + 1 >= c.size() || c[i] != '~' || c[i + 1] < '1' || c[i + 1] > '9') return std::string_view::npos;
  for (i += 2; i < c.size() && is_digit(c[i]); ++i) {
  }
  return i;
}

// NTFS spellings of the git directory, as git's protectNTFS refuses them: the
// name, or its 8.3 short name "git~1" (the directory git creates first), in
// any case, with any tail ntfs_tail accepts.
bool is_ntfs_git_dir(std::string_view c) {
  return ntfs_spelling(c, ".git") != NtfsTail::none || ntfs_spelling(c, "git~1") != NtfsTail::none;
}

// NTFS spellings of the secrets folder: the name; the 8.3 short name Windows
// generates for it, "SECRET~N" (any N: the folder need not be the first of
// its prefix); and the fallback short name made when ~1 to ~4 are taken,
// "SE" then four hex digits of a hash of the long name then "~N", matched for
// every hash, as git's is_ntfs_dot_generic does for a hash it knows; each in
// any case, with any tail ntfs_tail accepts.
NtfsTail ntfs_secret_spelling(std::string_view c) {
  if (NtfsTail t = ntfs_spelling(c, ".secrets"); t != NtfsTail::none) return t;
  size_t after_prefix = 0;
  if (istarts_with_ascii(c, "secret")) after_prefix = 6;
  else if (istarts_with_ascii(c, "se") && c.size() >= 6 && is_hex_digit(c[2]) && is_hex_digit(c[3]) &&
           is_hex_digit(c[4]) && is_hex_digit(c[5]))
    after_prefix = 6;
  else return NtfsTail::none;
  size_t end = past_tilde_number(c, after_prefix);
  return end == std::string_view::npos ? NtfsTail::none : ntfs_tail(c, end);
}

// HFS+ ignores some zero-width and direction-control code points when it
// compares names, so ".g\u200cit" opens ".git" there (git's protectHFS).
// Returns the UTF-8 length of such a code point at the start of s, else 0.
size_t hfs_ignorable_length(std::string_view s) {
  if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xe2) {
    unsigned char b1 = static_cast<unsigned char>(s[1]), b2 = static_cast<unsigned char>(s[2]);
    if (b1 == 0x80 && ((b2 >= 0x8c && b2 <= 0x8f) || (b2 >= 0xaa && b2 <= 0xae))) return 3;  // U+200C-F, U+202A-E
    if (b1 == 0x81 && b2 >= 0xaa && b2 <= 0xaf) return 3;                                   // U+206A-F
  }
  if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xef && static_cast<unsigned char>(s[1]) == 0xbb &&
      static_cast<unsigned char>(s[2]) == 0xbf)
    return 3;  // U+FEFF
  return 0;
}

// Whether HFS+ opens `c` as `name` (ASCII, at most 16 bytes): the same
// letters in any case once the ignorable code points are dropped (git's
// protectHFS).
bool hfs_folds_to(std::string_view c, std::string_view name) {
  // The folded name starts with the first byte that does not begin an
  // ignorable code point, so a component starting with any other byte than
  // the name's first or such a lead byte folds to something else: every
  // plain name of a workspace is settled here, at one comparison.
  if (c.empty() || name.empty() ||
      (ascii_lower(c[0]) != ascii_lower(name[0]) && hfs_ignorable_length(c) == 0))
    return false;
  char folded[16];
  size_t n_folded = 0;
  for (size_t i = 0; i < c.size();) {
    if (size_t n = hfs_ignorable_length(c.substr(i))) {
      i += n;
      continue;
    }
    if (n_folded == name.size() || n_folded == sizeof folded) return false;
    folded[n_folded++] = c[i++];
  }
  return iequals_ascii(std::string_view(folded, n_folded), name);
}

bool is_hfs_git_dir(std::string_view c) { return hfs_folds_to(c, ".git"); }

bool has_unc_prefix(std::string_view p) { return p.size() >= 2 && is_sep(p[0]) && is_sep(p[1]); }

bool has_drive_prefix(std::string_view p) { return p.size() >= 2 && is_ascii_alpha(p[0]) && p[1] == ':'; }

bool has_dot_or_empty_component(std::string_view p) {
  return any_component(p, [](std::string_view c) { return c.empty() || is_dot(c); });
}

bool has_control_char(std::string_view p) {
  for (char ch : p) {
    unsigned char b = static_cast<unsigned char>(ch);
    if (b < 0x20 || b == 0x7f) return true;
  }
  return false;
}

// Case-insensitive: on a case-folding checkout (macOS, Windows) ".WS/Config"
// would overwrite a protected ".ws/config", so the stricter match is the safe one.
bool matches_protected(std::string_view p, std::string_view pre) {
  if (pre.back() == '/')
    // The directory's own name too: a file of that name would replace it.
    return istarts_with_ascii(p, pre) || iequals_ascii(p, pre.substr(0, pre.size() - 1));
  return iequals_ascii(p, pre);
}

// An entry "**/REST" protects REST in every folder (git reads a
// .gitattributes in each): it is matched at every component of the path.
bool is_protected(std::string_view p, const std::vector<std::string>& prefixes) {
  for (const std::string& entry : prefixes) {
    std::string_view pre = entry;
    bool any_depth = pre.substr(0, 3) == "**/";
    if (any_depth) pre.remove_prefix(3);
    if (pre.empty()) continue;
    if (matches_protected(p, pre)) return true;
    for (std::size_t slash = p.find('/'); any_depth && slash != std::string_view::npos; slash = p.find('/', slash + 1))
      if (matches_protected(p.substr(slash + 1), pre)) return true;
  }
  return false;
}

bool is_too_long(std::string_view p) {
  if (p.size() > kMaxPathBytes) return true;
  int components = 0;
  return any_component(p, [&](std::string_view c) {
    return c.size() > kMaxComponentBytes || ++components > kMaxPathDepth;
  });
}

}  // namespace

bool breaks_rule(PathRule rule, std::string_view p, const PathPolicy& policy) {
  switch (rule) {
    case PathRule::empty: return p.empty();
    case PathRule::unc_prefix: return has_unc_prefix(p);
    case PathRule::drive_prefix: return has_drive_prefix(p);
    case PathRule::absolute: return !p.empty() && p.front() == '/';
    case PathRule::dot_component: return has_dot_or_empty_component(p);
    case PathRule::backslash: return p.find('\\') != std::string_view::npos;
    case PathRule::control_char: return has_control_char(p);
    case PathRule::git_dir: return any_component(p, is_git_dir_component);
    case PathRule::secret: return !policy.allow_secret_names && is_secret_path(p);
    case PathRule::protected_path: return is_protected(p, policy.protected_prefixes);
    case PathRule::too_long: return is_too_long(p);
  }
  return false;
}

namespace {

constexpr std::array kRuleOrder{
    PathRule::empty,     PathRule::unc_prefix,   PathRule::drive_prefix, PathRule::absolute,
    PathRule::dot_component, PathRule::backslash, PathRule::control_char, PathRule::git_dir,
    PathRule::secret,    PathRule::protected_path, PathRule::too_long,
};

// What is wrong, in parentheses after the rule name, then what to do.
std::string explain(PathRule rule, std::string_view path) {
  switch (rule) {
    case PathRule::empty:
      return "(no file is named); give the file's repository-relative path";
    case PathRule::unc_prefix:
      return "(a network or device path names a location outside the workspace); "
             "name the file by its repository-relative path";
    case PathRule::drive_prefix:
      return "(a drive letter names a location outside the workspace); "
             "name the file by its repository-relative path";
    case PathRule::absolute:
      return "(paths are relative to the workspace root); drop the leading '/'";
    case PathRule::dot_component:
      if (any_component(path, is_dot))
        return "('.' and '..' are not allowed); name the file by its plain repository-relative path";
      return "(empty components, as in 'a//b' or a trailing '/', are not allowed); "
             "name the file by its plain repository-relative path";
    case PathRule::backslash:
      return "('\\' is not allowed in names and is not a separator); separate directories with '/'";
    case PathRule::control_char:
      return "(NUL and control characters are not allowed in names); rename the file";
    case PathRule::git_dir:
      return "(a component is a spelling of '.git', git's own directory); rename that component";
    case PathRule::secret:
      return "(content under '.secrets/' is never opened, listed or changed); refer to the secret by its name";
    case PathRule::protected_path:
      return "(the workspace protects this path); leave it out of the change";
    case PathRule::too_long:
      return "(over 4096 bytes, a component over 255, or over " + std::to_string(kMaxPathDepth) +
             " components); use shorter names and fewer folders";
  }
  return {};
}

}  // namespace

Rule to_rule(PathRule rule) {
  switch (rule) {
    case PathRule::empty: return Rule::empty;
    case PathRule::unc_prefix: return Rule::unc_prefix;
    case PathRule::drive_prefix: return Rule::drive_prefix;
    case PathRule::absolute: return Rule::absolute;
    case PathRule::dot_component: return Rule::dot_component;
    case PathRule::backslash: return Rule::backslash;
    case PathRule::control_char: return Rule::control_char;
    case PathRule::git_dir: return Rule::git_dir;
    case PathRule::secret: return Rule::secret;
    case PathRule::protected_path: return Rule::protected_path;
    case PathRule::too_long: return Rule::too_long;
  }
  return Rule::none;
}

const char* path_rule_name(PathRule rule) { return rule_name(to_rule(rule)); }

std::string PathRejection::message() const {
  return "refused path '" + detail::printable_path(path) + "': " + path_rule_name(rule) + " " + explain(rule, path);
}

Error depth_cap_error(std::string path, Errc code) {
  std::string message = PathRejection{PathRule::too_long, path}.message();
  return make_error(code, std::move(message), std::move(path), Rule::too_long);
}

PathPolicy read_policy() { return PathPolicy{}; }

// Writing and proposals share one list: what a proposal may carry is exactly
// what may be written to the branch. ".git/" and ".secrets/" are listed even
// though git-dir and secret catch them first, so the list a tool shows is
// complete and stays right if a caller sets allow_secret_names.
PathPolicy write_policy(std::vector<std::string> extra_protected) {
  PathPolicy p;
  p.protected_prefixes = {".git/", ".secrets/"};
  for (auto& e : extra_protected) p.protected_prefixes.push_back(std::move(e));
  return p;
}

PathPolicy proposal_policy(std::vector<std::string> extra_protected) {
  return write_policy(std::move(extra_protected));
}

namespace {

// By byte: 0 never plain, 1 plain anywhere, 2 '.' (plain but not first), 4 '/'.
constexpr auto kPlainClass = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = 1;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = 1;
  for (int c = '0'; c <= '9'; ++c) t[c] = 1;
  t['_'] = t['-'] = 1;
  t['.'] = 2;
  t['/'] = 4;
  return t;
}();

// Past the plain component at `at` (before `end`): a first byte of class
// 1, then bytes of class 1 or 2 (one table lookup each), at most 255 of
// them. Null when no such component starts there.
const unsigned char* past_plain_component(const unsigned char* at, const unsigned char* end) {
  if (kPlainClass[*at] != 1) return nullptr;
  const auto* start = at;
  while (++at < end && (kPlainClass[*at] & 3) != 0) {
  }
  return static_cast<std::size_t>(at - start) > kMaxComponentBytes ? nullptr : at;
}

}  // namespace

bool is_plain_path(std::string_view p) {
  // Why each rule but protected_path cannot fire on such a path: no ':'
  // (drive, NTFS streams), no '\\' (UNC, backslash), no '/' at either end
  // and none doubled (absolute, empty components), no component starting
  // with '.' ('.', '..', '.git' and every spelling of it, '.secrets'), no
  // '~' ("git~1", "secret~1"), no byte outside ASCII letters, digits, '_', '-', '.'
  // (control characters, HFS's ignorable code points), and lengths in
  // bounds (too_long), depth included.
  if (p.empty() || p.size() > kMaxPathBytes) return false;
  // Component by component: a plain one, then a '/' and another, or the end.
  const auto* at = reinterpret_cast<const unsigned char*>(p.data());
  const auto* end = at + p.size();
  for (int components = 1;; ++components) {
    if (components > kMaxPathDepth || !(at = past_plain_component(at, end))) return false;
    if (at == end) return true;
    if (kPlainClass[*at] != 4 || ++at == end) return false;  // another byte, or a trailing '/'
  }
}

std::optional<PathRejection> check_path(std::string_view path, const PathPolicy& policy) {
  // Almost every path of a workspace is plain: one pass over its bytes
  // settles every rule but the policy's protected prefixes (a tenth of a
  // warm build at 10,000 definitions went to the rules one by one).
  if (is_plain_path(path)) {
    if (is_protected(path, policy.protected_prefixes)) return PathRejection{PathRule::protected_path, std::string(path)};
    return std::nullopt;
  }
  for (PathRule rule : kRuleOrder)
    if (breaks_rule(rule, path, policy)) return PathRejection{rule, std::string(path)};
  return std::nullopt;
}

std::optional<PathRejection> PathChecker::check(std::string_view path) {
  // A plain folder and one plain component below it, within the length
  // and depth limits, are a plain path (is_plain_path).
  const auto* name = reinterpret_cast<const unsigned char*>(path.data()) + folder_.size();
  const auto* end = reinterpret_cast<const unsigned char*>(path.data()) + path.size();
  const bool in_folder = folder_depth_ >= 0 && folder_depth_ < kMaxPathDepth && path.size() > folder_.size() &&
                         path.size() <= kMaxPathBytes && path.compare(0, folder_.size(), folder_) == 0;
  plain_ = in_folder && past_plain_component(name, end) == end;
  if (!plain_) {
    if (!is_plain_path(path)) return check_path(path, policy_);
    plain_ = true;
    std::size_t slash = path.rfind('/');
    folder_.assign(path.substr(0, slash == std::string_view::npos ? 0 : slash + 1));
    folder_depth_ = static_cast<int>(std::count(folder_.begin(), folder_.end(), '/'));
  }
  if (!policy_.protected_prefixes.empty() && is_protected(path, policy_.protected_prefixes))
    return PathRejection{PathRule::protected_path, std::string(path)};
  return std::nullopt;
}

namespace {

// `c` without HFS+'s ignorable code points.
std::string without_hfs_ignorables(std::string_view c) {
  std::string out;
  out.reserve(c.size());
  for (size_t i = 0; i < c.size();) {
    if (size_t n = hfs_ignorable_length(c.substr(i))) i += n;
    else out += c[i++];
  }
  return out;
}

// How a component spells the secrets folder: not at all, as the folder's
// name (content is below it), or as a stream of it (content in itself).
// git-dir's spellings, for '.secrets': NTFS's (case, trailing dots and
// spaces, 8.3 short names, streams) once HFS+'s ignorable code points are
// dropped, so a name that mixes the two file systems' foldings is one too.
NtfsTail secret_spelling(std::string_view c) {
  // Only a component holding a lead byte of such a code point is copied.
  if (c.find_first_of("\xe2\xef") != std::string_view::npos) return ntfs_secret_spelling(without_hfs_ignorables(c));
  return ntfs_secret_spelling(c);
}

}  // namespace

bool is_secret_folder(std::string_view component) { return secret_spelling(component) != NtfsTail::none; }

bool detail::is_secret_path_spelled(std::string_view p) {
  // The first byte was screened by is_secret_path (path_policy.h); the
  // component's spelling decides.
  size_t slash = p.find('/');
  NtfsTail t = secret_spelling(p.substr(0, slash));
  if (t == NtfsTail::stream) return true;  // '.secrets:x' is stored with the folder itself
  return t == NtfsTail::end && slash != std::string_view::npos && slash + 1 < p.size();
}

bool is_git_dir_component(std::string_view component) {
  return is_ntfs_git_dir(component) || is_hfs_git_dir(component);
}

}  // namespace ws
