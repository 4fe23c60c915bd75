// A proposal's file list as its --json records carry it (proposal_json.h).
#include "libcheck/proposal_json.h"

#include <string>

#include "libcheck/json_output.h"
#include "libcheck/policy_change.h"

namespace ws {

namespace {

nlohmann::json file_json(const FileStat& f) {
  nlohmann::json j{{"path", f.path}, {"status", std::string(1, static_cast<char>(f.status))},
                   {"additions", f.additions}, {"deletions", f.deletions}};
  if (!f.old_path.empty()) j["old_path"] = f.old_path;
  if (f.secret) j.update({{"additions", nullptr}, {"deletions", nullptr}, {"secret", true}});  // path only
  return j;
}

}  // namespace

nlohmann::json file_list_json(const std::vector<FileStat>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : files) out.push_back(file_json(f));
  return out;
}

nlohmann::ordered_json staged_json(const StageResult& staged) {
  auto j = json_record("proposal");
  j["id"] = staged.id;
  j["session"] = staged.session;
  j["base"] = staged.base.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(staged.base);
  j["branch"] = staged.branch;
  j["files"] = file_list_json(staged.files);
  j["policy_change"] = policy_paths(staged.files);
  j["supersedes"] = staged.superseded.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(staged.superseded);
  return j;
}

}  // namespace ws
