// A proposal's file list as its --json records carry it (proposal_json.h).
#include "libcheck/proposal_json.h"

#include <string>

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

}  // namespace ws
