// Where gitattributes may come from (git_attributes.h).
#include "git_attributes.h"

#include <sys/stat.h>

#include <optional>
#include <utility>

#include "git_util.h"

namespace ws::git {

namespace {

bool file_exists(const std::string& path) {
  struct stat st;
  return !path.empty() && ::stat(path.c_str(), &st) == 0;
}

// `name` in a folder of libgit2's search path for a configuration level:
// its path, "" when there is none, nullopt when the path is unknown.
std::optional<std::string> in_search_path(git_config_level_t level, const char* name) {
  git_buf buf = GIT_BUF_INIT;
  if (git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &buf) < 0) return std::nullopt;
  std::string dirs(buf.ptr ? buf.ptr : "", buf.size);
  git_buf_dispose(&buf);
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(GIT_PATH_LIST_SEPARATOR, start);
    if (end == std::string::npos) end = dirs.size();
    std::string file = dirs.substr(start, end - start) + "/" + name;
    if (end > start && file_exists(file)) return file;
    start = end + 1;
  }
  return std::string();
}

bool attributes_file_configured(git_repository* repo) {
  git_config* raw = nullptr;
  if (git_repository_config_snapshot(&raw, repo) < 0) return true;  // unknown: it may be
  Config config(raw);
  git_config_entry* entry = nullptr;
  if (git_config_get_entry(&entry, config.get(), "core.attributesfile") != 0) return false;
  git_config_entry_free(entry);
  return true;
}

}  // namespace

bool is_gitattributes_path(std::string_view path) {
  static constexpr std::string_view kName = ".gitattributes";
  if (path.size() < kName.size() || path.substr(path.size() - kName.size()) != kName) return false;
  return path.size() == kName.size() || path[path.size() - kName.size() - 1] == '/';
}

std::string attributes_file_outside_tree(git_repository* repo) {
  if (attributes_file_configured(repo)) return "core.attributesFile";
  std::string info = git_repository_commondir(repo);
  if (!info.empty() && info.back() != '/') info += '/';
  info += "info/attributes";
  if (file_exists(info)) return "attributes file '" + info + "'";
  for (auto [level, name] : {std::pair{GIT_CONFIG_LEVEL_XDG, "attributes"}, std::pair{GIT_CONFIG_LEVEL_SYSTEM, "gitattributes"}}) {
    auto found = in_search_path(level, name);
    if (!found) return std::string("attributes search path unknown");
    if (!found->empty()) return "attributes file '" + *found + "'";
  }
  return {};
}

}  // namespace ws::git
