#include "libcheck/pathspec.h"

#include <fnmatch.h>

#include "libcheck/path_policy.h"

namespace ws {

Result<Pathspec> parse_pathspec(std::string_view arg) {
  Pathspec spec;
  std::string text(arg);
  if (text == "." || text == "./") return Pathspec{"", false};
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  if (auto rej = check_path(text, read_policy()))
    return make_error(Errc::usage, "invalid pathspec: " + rej->message(), std::string(arg),
                      path_rule_name(rej->rule));
  spec.glob = text.find_first_of("*?[") != std::string::npos;
  spec.text = std::move(text);
  return spec;
}

Result<std::vector<Pathspec>> parse_pathspecs(const std::vector<std::string>& args) {
  std::vector<Pathspec> out;
  for (const auto& a : args) {
    auto p = parse_pathspec(a);
    if (!p) return p.error();
    out.push_back(std::move(p).value());
  }
  return out;
}

bool pathspec_matches(const Pathspec& spec, std::string_view path) {
  if (spec.text.empty()) return true;
  if (spec.glob) {
    std::string p(path);
    if (fnmatch(spec.text.c_str(), p.c_str(), 0) == 0) return true;
    // A glob naming a directory matches what is beneath it.
    for (auto slash = p.find('/'); slash != std::string::npos; slash = p.find('/', slash + 1))
      if (fnmatch(spec.text.c_str(), p.substr(0, slash).c_str(), 0) == 0) return true;
    return false;
  }
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

}  // namespace ws
