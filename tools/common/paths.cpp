#include "common/paths.h"

namespace wscli {

ws::PathPrefix path_prefix(const ws::Workspace& w, const CommonOptions& o) {
  if (!w.root) return {};  // a bare repository: every path is from the root
  return ws::path_prefix_of(w.root->path(), o.dir);
}

std::optional<std::vector<ws::Pathspec>> parse_pathspecs_or_report(const char* tool,
                                                                   const std::vector<std::string>& args,
                                                                   const ws::PathPrefix& prefix, int& exit_code) {
  auto specs = ws::parse_pathspecs(args, prefix);
  if (specs) return std::move(specs).value();
  exit_code = report_error(tool, specs.error());
  return std::nullopt;
}

int report_unmatched(const char* tool, const std::vector<ws::Pathspec>& specs,
                     const std::vector<std::size_t>& unmatched) {
  int code = kExitOk;
  for (std::size_t i : unmatched)
    if (i < specs.size() && !specs[i].arg.empty()) code = report_error(tool, ws::unmatched_pathspec(specs[i]));
  return code;
}

}  // namespace wscli
