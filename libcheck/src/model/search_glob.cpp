#include "libcheck/search_glob.h"

#include <algorithm>
#include <optional>
#include <string>

namespace ws {

namespace {

// rg's limit on nothing; ours keeps "{a,b}{c,d}..." from growing without
// bound (2^n globs for n groups).
constexpr std::size_t kMaxAlternatives = 256;

Error bad_search_glob(std::string_view text, const std::string& why) {
  return make_error(Errc::usage, "invalid glob '" + std::string(text) + "' for --glob: " + why, std::string(text),
                    Rule::glob);
}

// Where the bracket expression opening at `open` ends (its ']'), or npos:
// a ']' right after '[', '[!' or '[^' is a member, as in fnmatch(3).
std::size_t bracket_end(std::string_view s, std::size_t open) {
  std::size_t i = open + 1;
  if (i < s.size() && (s[i] == '!' || s[i] == '^')) ++i;
  if (i < s.size() && s[i] == ']') ++i;
  for (; i < s.size(); ++i)
    if (s[i] == ']') return i;
  return std::string_view::npos;
}

struct Group {
  std::size_t open = 0, close = 0;
  std::vector<std::string> alternatives;
};

// The first '{...}' group of `s` outside brackets and escapes; nullopt for
// none. An unclosed or nested group is an error, as rg's.
Result<std::optional<Group>> first_group(std::string_view s, std::string_view text) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\') { ++i; continue; }
    if (s[i] == '[') {
      if (std::size_t end = bracket_end(s, i); end != std::string_view::npos) i = end;
      continue;
    }
    if (s[i] != '{') continue;
    Group g;
    g.open = i;
    std::string current;
    for (std::size_t j = i + 1; j < s.size(); ++j) {
      if (s[j] == '\\' && j + 1 < s.size()) { current += s.substr(j, 2); ++j; continue; }
      if (s[j] == '[') {
        if (std::size_t end = bracket_end(s, j); end != std::string_view::npos) {
          current += s.substr(j, end + 1 - j);
          j = end;
          continue;
        }
      }
      if (s[j] == '{') return bad_search_glob(text, "alternatives '{...}' do not nest");
      if (s[j] == ',') { g.alternatives.push_back(std::move(current)); current.clear(); continue; }
      if (s[j] == '}') {
        g.alternatives.push_back(std::move(current));
        g.close = j;
        return std::optional<Group>(std::move(g));
      }
      current += s[j];
    }
    return bad_search_glob(text, "'{' is not closed; write '\\{' or '[{]' for a literal '{'");
  }
  return std::optional<Group>();
}

// Every glob `text` stands for, its groups expanded left to right.
Result<std::vector<std::string>> expand_alternatives(std::string_view text) {
  std::vector<std::string> done, pending{std::string(text)};
  while (!pending.empty()) {
    std::string s = std::move(pending.back());
    pending.pop_back();
    auto group = first_group(s, text);
    if (!group) return group.error();
    if (!*group) { done.push_back(std::move(s)); continue; }
    const Group& g = **group;
    // Pushed last first, so that they are expanded, and kept, in order.
    for (auto a = g.alternatives.rbegin(); a != g.alternatives.rend(); ++a)
      pending.push_back(s.substr(0, g.open) + *a + s.substr(g.close + 1));
    if (done.size() + pending.size() > kMaxAlternatives)
      return bad_search_glob(text, "stands for more than 256 globs; split it into several -g");
  }
  return done;
}

// Whether a folder above `path` is excluded: its deciding glob is a '!' one.
bool folder_excluded(const std::vector<IgnoreGlob>& globs, std::string_view path) {
  for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
    const IgnoreGlob* g = last_matching_glob(globs, path.substr(0, slash), /*is_folder=*/true);
    if (g && g->negated) return true;
  }
  return false;
}

}  // namespace

Result<std::vector<IgnoreGlob>> parse_search_glob(std::string_view text) {
  bool negated = !text.empty() && text.front() == '!';
  auto expanded = expand_alternatives(negated ? text.substr(1) : text);
  if (!expanded) return expanded.error();
  std::vector<IgnoreGlob> out;
  for (const std::string& one : *expanded) {
    auto g = parse_glob(negated ? "!" + one : one, [&](const std::string& rule) { return bad_search_glob(text, rule); });
    if (!g) return g.error();
    out.push_back(std::move(g).value());
  }
  return out;
}

bool search_globs_select(const std::vector<IgnoreGlob>& globs, std::string_view path) {
  if (globs.empty()) return true;
  if (folder_excluded(globs, path)) return false;
  if (const IgnoreGlob* g = last_matching_glob(globs, path, /*is_folder=*/false)) return !g->negated;
  return std::all_of(globs.begin(), globs.end(), [](const IgnoreGlob& g) { return g.negated; });
}

}  // namespace ws
