// The resources of ws mcp (ws-mcp(1), RESOURCES): every definition of the
// view as ws://PATH, read as the read tool reads it, and the subscribed
// ones watched for changes by their file's status (never its bytes).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "confined_open.h"
#include "libcheck/file_stamp.h"
#include "libcheck/result.h"
#include "mcp_tools.h"

namespace ws::mcp::detail {

// "ws://" and the path, its bytes other than letters, digits and "-._~/"
// percent-encoded; and back (nullopt for anything else).
std::string resource_uri(std::string_view path);
std::optional<std::string> resource_path(std::string_view uri);

class Subscriptions {
 public:
  // The workspace's root folder, opened once: subscribed files are looked
  // at beneath it. False when it cannot be opened.
  bool set_root(const std::string& root);
  // resources/list: a page of the view's definitions, 'cursor' where the
  // last page ended.
  Result<nlohmann::json> list(const ToolContext& context, const nlohmann::json& params) const;
  // resources/read: the file 'uri' names.
  Result<nlohmann::json> read(const ToolContext& context, const nlohmann::json& params) const;
  // resources/subscribe (`on`) and resources/unsubscribe.
  Result<nlohmann::json> subscribe(const nlohmann::json& params, bool on);
  // The URIs of subscribed files whose status changed since last looked at.
  std::vector<std::string> changed();
  bool watching() const { return !watched_.empty(); }

 private:
  // The file beneath the root, never through a link: a change of any of
  // its stamp is a change.
  FileStamp stamp_of(const std::string& path) const;

  ws::detail::Fd root_;
  // At most 10,000 (kMaxWatched): each is looked at after every message.
  std::map<std::string, FileStamp> watched_;  // by path
};

}  // namespace ws::mcp::detail
