#include "support/proposal_tools.h"

#include <catch2/catch.hpp>

namespace wstest {

std::map<std::string, std::string> approver_env() {
  return {{"GIT_COMMITTER_NAME", "Ada Approver"}, {"GIT_COMMITTER_EMAIL", "approver@example.com"}};
}

std::map<std::string, std::string> approver_tool_env() {
  auto env = approver_env();
  env["WS_KINDS_DIR"] = std::string(WS_SOURCE_DIR) + "/schemas/kinds";
  return env;
}

RunResult ws(const TempRepo& repo, const std::string& name, const std::vector<std::string>& args,
             std::map<std::string, std::string> env) {
  RunOptions o;
  o.env = std::move(env);
  if (!o.env.count("GIT_COMMITTER_NAME"))
    for (auto& [k, v] : approver_env()) o.env[k] = v;
  return ws(name, args, repo.path(), o);
}

std::string stage(const TempRepo& repo, const std::string& message, std::map<std::string, std::string> env) {
  return staged_id(ws(repo, "ws-commit", {"-m", message}, std::move(env)));
}

std::string rev(const TempRepo& repo, const std::string& what) { return chomp(repo.git({"rev-parse", what})); }

bool fsck_clean(const TempRepo& repo) {
  auto r = repo.git_result({"fsck", "--strict", "--no-progress"});
  INFO("git fsck --strict: " << r.out << r.err);
  return r.status == 0 && r.err.find("error") == std::string::npos;
}

}  // namespace wstest
