#include "libcheck/pathspec.h"

#include <fnmatch.h>
#include <stdlib.h>

#include <cstdlib>

#include "libcheck/path_policy.h"

namespace ws {

namespace {

constexpr std::string_view kRootMagic = ":/";

struct Component {
  std::string_view text;
  bool from_prefix;
};

std::vector<std::string_view> split_slashes(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t slash = s.find('/', start);
    if (slash == std::string_view::npos) slash = s.size();
    out.push_back(s.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

Error outside_root(std::string_view arg) {
  return make_error(Errc::usage,
                    "pathspec '" + std::string(arg) +
                        "' is outside the workspace; write it relative to the current folder, or ':/PATH' from the root",
                    std::string(arg), Rule::outside_root);
}

// `arg` resolved against the prefix as text: empty and '.' components
// dropped, '..' taking back the one before it. False when '..' leads out of
// the root.
bool resolve(std::string_view arg, const PathPrefix& prefix, std::vector<Component>& out) {
  for (std::string_view c : split_slashes(prefix.folder))
    if (!c.empty()) out.push_back({c, true});
  for (std::string_view c : split_slashes(arg)) {
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      if (out.empty()) return false;
      out.pop_back();
      continue;
    }
    out.push_back({c, false});
  }
  return true;
}

// A glob against `path`, the literal part compared as bytes: the glob
// matches the whole path or a folder above it (what is beneath a folder).
bool glob_matches(const Pathspec& spec, std::string_view path) {
  if (path.size() < spec.literal || path.compare(0, spec.literal, spec.text, 0, spec.literal) != 0) return false;
  const std::string pattern = spec.text.substr(spec.literal);
  const std::string rest(path.substr(spec.literal));
  if (fnmatch(pattern.c_str(), rest.c_str(), 0) == 0) return true;
  for (auto slash = rest.find('/'); slash != std::string::npos; slash = rest.find('/', slash + 1))
    if (fnmatch(pattern.c_str(), rest.substr(0, slash).c_str(), 0) == 0) return true;
  return false;
}

}  // namespace

PathPrefix path_prefix_of(const std::string& root, const std::string& dir) {
  char* real = ::realpath(dir.c_str(), nullptr);
  if (!real) return {};
  std::string here(real);
  std::free(real);
  if (root.empty() || here.size() <= root.size() || here.compare(0, root.size(), root) != 0) return {};
  if (root.back() != '/' && here[root.size()] != '/') return {};
  std::string folder = here.substr(root.size() + (root.back() == '/' ? 0 : 1)) + "/";
  // The git directory is no folder of the view.
  if (folder.compare(0, 5, ".git/") == 0) return {};
  return PathPrefix{std::move(folder)};
}

Result<Pathspec> parse_pathspec(std::string_view arg, const PathPrefix& prefix) {
  Pathspec spec;
  spec.arg = std::string(arg);
  // As git, an empty string names no path (not every path); an absolute
  // path is refused as the path policy refuses it, wherever it points.
  if (arg.empty() || arg.front() == '/')
    if (auto rej = check_path(arg, read_policy()))
      return make_error(Errc::usage, "invalid pathspec: " + rej->message(), std::string(arg),
                        to_rule(rej->rule));
  bool from_root = arg.substr(0, kRootMagic.size()) == kRootMagic;
  // `parts` views the prefix's bytes: the prefix must outlive it.
  const PathPrefix root_prefix;
  const PathPrefix& base = from_root ? root_prefix : prefix;
  std::vector<Component> parts;
  if (!resolve(from_root ? arg.substr(kRootMagic.size()) : arg, base, parts)) return outside_root(arg);
  bool literal_run = true;
  for (const Component& c : parts) {
    if (!spec.text.empty()) spec.text += '/';
    spec.text += c.text;
    literal_run = literal_run && c.from_prefix;
    if (literal_run) spec.literal = spec.text.size();
  }
  if (spec.text.empty()) return spec;
  if (auto rej = check_path(spec.text, read_policy()))
    return make_error(Errc::usage, "invalid pathspec: " + rej->message(), std::string(arg),
                      to_rule(rej->rule));
  spec.glob = spec.text.find_first_of("*?[", spec.literal) != std::string::npos;
  return spec;
}

Result<std::vector<Pathspec>> parse_pathspecs(const std::vector<std::string>& args, const PathPrefix& prefix) {
  std::vector<Pathspec> out;
  for (const auto& a : args) {
    auto p = parse_pathspec(a, prefix);
    if (!p) return p.error();
    out.push_back(std::move(p).value());
  }
  return out;
}

std::vector<Pathspec> or_current_folder(std::vector<Pathspec> given, const PathPrefix& prefix) {
  if (!given.empty() || prefix.folder.empty()) return given;
  Pathspec here;
  here.text = prefix.folder.substr(0, prefix.folder.size() - 1);
  here.literal = here.text.size();
  return {std::move(here)};
}

bool pathspec_matches(const Pathspec& spec, std::string_view path) {
  if (spec.text.empty()) return true;
  if (spec.glob) return glob_matches(spec, path);
  if (path == spec.text) return true;
  return path.size() > spec.text.size() && path.substr(0, spec.text.size()) == spec.text &&
         path[spec.text.size()] == '/';
}

bool any_pathspec_matches(const std::vector<Pathspec>& specs, std::string_view path) {
  if (specs.empty()) return true;
  for (const auto& s : specs)
    if (pathspec_matches(s, path)) return true;
  return false;
}

Error unmatched_pathspec(const Pathspec& spec) {
  return make_error(Errc::usage, "pathspec '" + spec.arg + "' did not match any file", spec.arg, Rule::pathspec);
}

std::string path_from_prefix(std::string_view path, const PathPrefix& prefix) {
  std::string_view folder = prefix.folder;
  // The folders the two share, whole, are dropped; each folder of the
  // prefix left over is one '..'.
  std::size_t common = 0;
  for (std::size_t i = 0; i < folder.size() && i < path.size() && folder[i] == path[i]; ++i)
    if (folder[i] == '/') common = i + 1;
  std::string out;
  for (std::size_t i = common; i < folder.size(); ++i)
    if (folder[i] == '/') out += "../";
  out += path.substr(common);
  return out;
}

}  // namespace ws
