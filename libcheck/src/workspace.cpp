#include "libcheck/workspace.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "definition_cache.h"
#include "libcheck/compile.h"
#include "libcheck/kinds.h"

namespace ws {

bool is_workspace_config_path(std::string_view path) {
  return path.substr(0, 4) == ".ws/" || path == ".gitignore" || path == ".gitattributes" ||
         path == ".pre-commit-config.yaml" || path == ".mailmap";
}

bool is_valid_session(std::string_view s) { return !s.empty() && s.size() <= 64 && is_valid_id_segment(s); }

namespace {

Error config_error(const std::string& what) {
  return make_error(Errc::invalid, "invalid .ws/config.json: " + what, ".ws/config.json");
}

// The "approval" object: its keys are checked as strictly as the top level's.
Result<ApprovalConfig> parse_approval(const nlohmann::json& value) {
  if (!value.is_object()) return config_error("'approval' must be an object");
  ApprovalConfig a;
  for (auto& [key, v] : value.items()) {
    if (key == "distinct_approver") {
      if (!v.is_boolean()) return config_error("'approval.distinct_approver' must be true or false");
      a.distinct_approver = v.get<bool>();
    } else {
      return config_error("unknown key 'approval." + key + "'; allowed in 'approval': distinct_approver");
    }
  }
  return a;
}

}  // namespace

Result<WorkspaceConfig> parse_workspace_config(std::string_view text) {
  WorkspaceConfig c;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    return make_error(Errc::invalid, "invalid .ws/config.json: not valid JSON", ".ws/config.json");
  if (!j.is_object())
    return make_error(Errc::invalid, "invalid .ws/config.json: not a JSON object", ".ws/config.json");
  for (auto& [key, value] : j.items()) {
    if (key == "unrouted") {
      std::string v = value.is_string() ? value.get<std::string>() : "";
      if (v == "error") c.unrouted = UnroutedPolicy::error;
      else if (v == "warning") c.unrouted = UnroutedPolicy::warning;
      else if (v == "ignore") c.unrouted = UnroutedPolicy::ignore;
      else
        return make_error(Errc::invalid,
                          "invalid .ws/config.json: 'unrouted' must be \"error\", \"warning\" or \"ignore\"",
                          ".ws/config.json");
    } else if (key == "protected") {
      if (!value.is_array())
        return make_error(Errc::invalid, "invalid .ws/config.json: 'protected' must be an array of paths",
                          ".ws/config.json");
      for (auto& p : value) {
        if (!p.is_string() || p.get<std::string>().empty())
          return make_error(Errc::invalid, "invalid .ws/config.json: 'protected' entries must be non-empty strings",
                            ".ws/config.json");
        c.protected_paths.push_back(p.get<std::string>());
      }
    } else if (key == "size_cap") {
      if (!value.is_number_unsigned() || value.get<std::uint64_t>() == 0)
        return make_error(Errc::invalid, "invalid .ws/config.json: 'size_cap' must be a positive number of bytes",
                          ".ws/config.json");
      c.size_cap = value.get<std::uint64_t>();
    } else if (key == "approval") {
      auto approval = parse_approval(value);
      if (!approval) return approval.error();
      c.approval = *approval;
    } else {
      return make_error(Errc::invalid,
                        "invalid .ws/config.json: unknown key '" + key +
                            "'; allowed: unrouted, protected, size_cap, approval",
                        ".ws/config.json");
    }
  }
  return c;
}

namespace {

Result<std::map<std::string, std::string>> read_manifest_dir(const std::string& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return make_error(Errc::environment,
                      "kind pack not found at '" + dir + "'; reinstall ws or set WS_KINDS_DIR", dir);
  for (auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream f(entry.path(), std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    out[entry.path().filename().string()] = ss.str();
  }
  if (ec) return make_error(Errc::environment, "cannot read kind pack '" + dir + "': " + ec.message(), dir);
  return out;
}

}  // namespace

Result<Workspace> open_workspace(const OpenOptions& options) {
  Workspace w;
  w.session = options.session;
  auto repo = Repository::open(options.dir);
  if (!repo) return repo.error();
  w.repo = std::make_unique<Repository>(std::move(repo).value());
  if (options.prefetch_cache) w.cache_prefetch = CachePrefetch::start(definition_cache_file(*w.repo), tool_version());

  if (!w.repo->is_bare()) {
    const char* home = std::getenv("HOME");
    auto root = WorkspaceRoot::open(w.repo->workdir(), home ? home : "");
    if (!root) return root.error();
    w.root = std::make_shared<const WorkspaceRoot>(std::move(root).value());
  }

  w.view_spec = options.view;
  auto view = open_view(*w.repo, w.root, options.view);
  if (!view) return view.error();

  // The workspace's own configuration travels with the view, so a changeset
  // that edits .ws/ is checked under the configuration it proposes.
  if (const ViewEntry* cfg = view->find(".ws/config.json"); cfg && cfg->status != ChangeStatus::deleted) {
    auto text = view->read(*cfg);
    if (!text) return text.error();
    auto parsed = parse_workspace_config(*text);
    if (!parsed) return parsed.error();
    w.config = std::move(parsed).value();
  }
  if (w.config.size_cap != kDefaultSizeCap) {
    view = open_view(*w.repo, w.root, options.view, w.config.size_cap);
    if (!view) return view.error();
  }
  w.view = std::move(view).value();

  auto defaults = read_manifest_dir(options.kinds_dir.empty() ? default_kinds_dir() : options.kinds_dir);
  if (!defaults) return defaults.error();
  std::map<std::string, std::string> overlay;
  for (const auto& e : w.view.entries()) {
    if (e.status == ChangeStatus::deleted) continue;
    std::string_view p = e.path;
    if (p.substr(0, 10) != ".ws/kinds/" || p.find('/', 10) != std::string_view::npos ||
        p.size() < 15 || p.substr(p.size() - 5) != ".json")
      continue;
    auto text = w.view.read(e);
    if (!text) return text.error();
    overlay[e.path] = std::move(text).value();
  }
  // A pack this version of the tool validated before (its definition cache
  // names it) need not have its schemas compiled again just to be checked.
  std::string validated = DefinitionCache::validated_kind_digest(definition_cache_file(*w.repo), tool_version());
  auto pack = KindPack::from_texts(*defaults, overlay, validated);
  if (!pack) return pack.error();
  w.kinds = std::move(pack).value();
  return w;
}

Result<View> whole_view(const Workspace& ws) {
  ViewSpec spec = ws.view_spec;
  spec.changes_only = false;
  return open_view(*ws.repo, ws.root, spec, ws.config.size_cap);
}

std::optional<std::string> read_view_path(const Workspace& ws, const std::string& path) {
  if (const ViewEntry* e = ws.view.find(path)) {
    auto bytes = ws.view.read(*e);
    if (!bytes) return std::nullopt;
    return std::move(bytes).value();
  }
  // A changes-only view holds every changed path: one it lacks is the base's.
  if (!ws.view_spec.changes_only || !ws.repo || ws.view.base_commit().empty()) return std::nullopt;
  auto entry = ws.repo->entry_at(ws.view.base_commit(), path);
  if (!entry || !*entry || (*entry)->mode == kModeLink || (*entry)->mode == kModeGitlink) return std::nullopt;
  auto bytes = ws.view.content().read_blob((*entry)->blob_id);
  if (!bytes) return std::nullopt;
  return std::move(bytes).value();
}

}  // namespace ws
