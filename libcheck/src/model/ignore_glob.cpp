#include "libcheck/ignore_glob.h"

#include <fnmatch.h>

namespace ws {

namespace {

std::vector<std::string> split_segments(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = s.find('/', start);
    out.emplace_back(s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}


bool segment_matches(const std::string& pattern, std::string_view name) {
  std::string n(name);
  return fnmatch(pattern.c_str(), n.c_str(), 0) == 0;
}

// Pattern segments against path segments, "**" standing for any number of
// them (at least one when it ends the pattern: "drafts/**" is what is
// inside drafts/, not drafts itself). Dynamic programming over the two
// positions, so no pattern takes more than segments × segments steps.
bool segments_match(const std::vector<std::string>& pat, const std::vector<std::string_view>& path) {
  const std::size_t P = pat.size(), S = path.size();
  // can[i][j]: pat[i..] matches path[j..]
  std::vector<std::vector<char>> can(P + 1, std::vector<char>(S + 1, 0));
  can[P][S] = 1;
  for (std::size_t i = P; i-- > 0;) {
    for (std::size_t j = S + 1; j-- > 0;) {
      if (pat[i] == "**") {
        bool last = i + 1 == P;
        bool zero = !last && can[i + 1][j];
        bool more = j < S && (can[i][j + 1] || (last && j + 1 == S));
        can[i][j] = zero || more;
      } else {
        can[i][j] = j < S && segment_matches(pat[i], path[j]) && can[i + 1][j + 1];
      }
    }
  }
  return can[0][0] != 0;
}

// One pattern against one candidate: the file itself, or a folder above it.
bool glob_matches(const IgnoreGlob& g, const std::vector<std::string_view>& segs, bool is_folder) {
  if (g.folders_only && !is_folder) return false;
  if (!g.anchored) return segment_matches(g.segments.front(), segs.back());
  return segments_match(g.segments, segs);
}

// The last pattern that matches decides: true for ignored.
bool decided_ignored(const std::vector<IgnoreGlob>& globs, const std::vector<std::string_view>& segs, bool is_folder) {
  bool ignored = false;
  for (const IgnoreGlob& g : globs)
    if (glob_matches(g, segs, is_folder)) ignored = !g.negated;
  return ignored;
}

}  // namespace

Result<IgnoreGlob> parse_ignore_glob(std::string_view text, std::string_view key) {
  return parse_glob(text, [&](const std::string& rule) {
    return make_error(Errc::invalid,
                      "invalid .ws/config.json: '" + std::string(key) + "' pattern '" + std::string(text) + "' " + rule,
                      ".ws/config.json");
  });
}

Result<IgnoreGlob> parse_glob(std::string_view text, const std::function<Error(const std::string& rule)>& bad) {
  IgnoreGlob g;
  g.text = std::string(text);
  for (unsigned char c : text)
    if (c < 0x20 || c == 0x7f) return bad("holds a control character");
  std::string_view p = text;
  if (!p.empty() && p.front() == '!') {
    g.negated = true;
    p.remove_prefix(1);
  }
  if (!p.empty() && p.back() == '/') {
    g.folders_only = true;
    p.remove_suffix(1);
  }
  // A '/' at the start or in the middle anchors the pattern at the root.
  g.anchored = p.find('/') != std::string_view::npos;
  if (!p.empty() && p.front() == '/') p.remove_prefix(1);
  if (p.empty()) return bad("names nothing; write a file or folder name, or a glob");
  g.segments = split_segments(p);
  for (const auto& s : g.segments)
    if (s.empty() || s == "." || s == "..")
      return bad("has an empty, '.' or '..' segment; write a path relative to the workspace root");
  return g;
}

const IgnoreGlob* last_matching_glob(const std::vector<IgnoreGlob>& globs, std::string_view path, bool is_folder) {
  std::vector<std::string_view> segs;
  for (std::size_t start = 0;;) {
    std::size_t slash = path.find('/', start);
    segs.push_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  const IgnoreGlob* last = nullptr;
  for (const IgnoreGlob& g : globs)
    if (glob_matches(g, segs, is_folder)) last = &g;
  return last;
}

bool is_ignored_path(const std::vector<IgnoreGlob>& globs, std::string_view path) {
  if (globs.empty()) return false;
  std::vector<std::string_view> segs;
  for (std::size_t start = 0;;) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) break;
    segs.push_back(path.substr(start, slash - start));
    // A folder ignored ignores all inside it; no later '!' brings a file back.
    if (decided_ignored(globs, segs, /*is_folder=*/true)) return true;
    start = slash + 1;
  }
  segs.push_back(path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1));
  return decided_ignored(globs, segs, /*is_folder=*/false);
}

}  // namespace ws
