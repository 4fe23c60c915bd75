#include "libcheck/workspace.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "base_kinds.h"
#include "commit_config.h"
#include "home_directory.h"
#include "rule_config_parse.h"
#include "secret_content.h"
#include "libcheck/kinds.h"
#include "libcheck/path_policy.h"

namespace ws {

bool is_workspace_config_path(std::string_view path) {
  return path.substr(0, 4) == ".ws/" || path == ".gitignore" || path == ".gitattributes" ||
         path == ".pre-commit-config.yaml" || path == ".mailmap";
}

bool is_valid_session(std::string_view s) { return !s.empty() && s.size() <= 64 && is_valid_id_segment(s); }

namespace {

// The default-protected paths (ws(7), WORKSPACE CONFIGURATION): each makes
// git, a CI service or a hook manager run programs, so a change to one is a
// change to what runs, not to the workspace's definitions.
struct DefaultProtected {
  const char* name;     // as "unprotected" names it
  const char* pattern;  // as protected_paths holds it (path_policy.h)
};
constexpr DefaultProtected kDefaultProtected[] = {
    {".gitattributes", "**/.gitattributes"},  // filters and diff/merge drivers, in every folder
    {".gitmodules", ".gitmodules"},
    {".pre-commit-config.yaml", ".pre-commit-config.yaml"},
    {".github/", ".github/"},
    {".gitlab-ci.yml", ".gitlab-ci.yml"},
};

Error invalid_config(const std::string& why) {
  return make_error(Errc::invalid, "invalid .ws/config.json: " + why, ".ws/config.json");
}

Result<std::vector<std::string>> path_list(const nlohmann::json& value, const std::string& key) {
  if (!value.is_array()) return invalid_config("'" + key + "' must be an array of paths");
  std::vector<std::string> out;
  for (auto& p : value) {
    if (!p.is_string() || p.get<std::string>().empty())
      return invalid_config("'" + key + "' entries must be non-empty strings");
    out.push_back(p.get<std::string>());
  }
  return out;
}

// "unprotected" may only name default-protected paths: it lifts a default,
// never a protection the workspace or the tools add.
Status check_unprotected(const std::vector<std::string>& names) {
  const auto& allowed = default_protected_names();
  for (const auto& n : names) {
    if (std::find(allowed.begin(), allowed.end(), n) != allowed.end()) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    return invalid_config("'unprotected' may name only default-protected paths (" + list + "), not '" + n + "'");
  }
  return Ok{};
}

// The default-protected paths not unprotected, then the workspace's own.
std::vector<std::string> protected_list(const std::vector<std::string>& unprotected,
                                        std::vector<std::string> own) {
  std::vector<std::string> out;
  for (const auto& d : kDefaultProtected)
    if (std::find(unprotected.begin(), unprotected.end(), d.name) == unprotected.end()) out.push_back(d.pattern);
  for (auto& p : own) out.push_back(std::move(p));
  return out;
}

// The "approval" object: its keys are checked as strictly as the top level's.
Result<ApprovalConfig> parse_approval(const nlohmann::json& value) {
  if (!value.is_object()) return invalid_config("'approval' must be an object");
  ApprovalConfig a;
  for (auto& [key, v] : value.items()) {
    if (key == "distinct_approver") {
      if (!v.is_boolean()) return invalid_config("'approval.distinct_approver' must be true or false");
      a.distinct_approver = v.get<bool>();
    } else {
      return invalid_config("unknown key 'approval." + key + "'; allowed in 'approval': distinct_approver");
    }
  }
  return a;
}

// "ignore": gitignore-style patterns (ignore_glob.h), each checked here so
// a bad one is named once, when the config is read.
Result<std::vector<IgnoreGlob>> ignore_list(const nlohmann::json& value) {
  auto list = path_list(value, "ignore");
  if (!list) return list.error();
  std::vector<IgnoreGlob> out;
  for (const auto& text : *list) {
    auto g = parse_ignore_glob(text);
    if (!g) return g.error();
    out.push_back(std::move(g).value());
  }
  return out;
}

// The rule keys (ws(7), RULES), read by rule_config_parse.cpp.
Status parse_rule_key(const std::string& key, const nlohmann::json& value, RuleConfig& rules) {
  if (key == "rules") return detail::parse_rule_levels(value, rules);
  if (key == "rule_paths") return detail::parse_rule_paths(value, rules);
  return detail::parse_require_reason(value, rules);
}

}  // namespace

const std::vector<std::string>& default_protected_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& d : kDefaultProtected) v.push_back(d.name);
    return v;
  }();
  return names;
}

std::vector<std::string> default_protected_paths() { return protected_list({}, {}); }

Result<WorkspaceConfig> parse_workspace_config(std::string_view text) {
  WorkspaceConfig c;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return invalid_config("not valid JSON");
  if (!j.is_object()) return invalid_config("not a JSON object");
  std::vector<std::string> own, unprotected;
  for (auto& [key, value] : j.items()) {
    if (key == "unrouted") {
      std::string v = value.is_string() ? value.get<std::string>() : "";
      if (v == "error") c.unrouted = UnroutedPolicy::error;
      else if (v == "warning") c.unrouted = UnroutedPolicy::warning;
      else if (v == "ignore") c.unrouted = UnroutedPolicy::ignore;
      else return invalid_config("'unrouted' must be \"error\", \"warning\" or \"ignore\"");
    } else if (key == "protected") {
      auto list = path_list(value, key);
      if (!list) return list.error();
      own = std::move(list).value();
    } else if (key == "unprotected") {
      auto list = path_list(value, key);
      if (!list) return list.error();
      if (auto st = check_unprotected(*list); !st) return st.error();
      unprotected = std::move(list).value();
    } else if (key == "size_cap") {
      if (!value.is_number_unsigned() || value.get<std::uint64_t>() == 0)
        return invalid_config("'size_cap' must be a positive number of bytes");
      c.size_cap = value.get<std::uint64_t>();
    } else if (key == "ignore") {
      auto globs = ignore_list(value);
      if (!globs) return globs.error();
      c.ignore = std::move(globs).value();
    } else if (key == "approval") {
      auto approval = parse_approval(value);
      if (!approval) return approval.error();
      c.approval = *approval;
    } else if (key == "rules" || key == "rule_paths" || key == "require_suppression_reason") {
      if (auto st = parse_rule_key(key, value, c.rules); !st) return st.error();
    } else {
      return invalid_config("unknown key '" + key + "'; allowed: unrouted, ignore, protected, unprotected, size_cap, "
                            "approval, rules, rule_paths, require_suppression_reason");
    }
  }
  c.protected_paths = protected_list(unprotected, std::move(own));
  return c;
}

bool is_kind_manifest_path(std::string_view p) {
  return p.size() >= 15 && p.substr(0, 10) == ".ws/kinds/" && p.find('/', 10) == std::string_view::npos &&
         p.substr(p.size() - 5) == ".json";
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

// The bytes of a configuration file or kind manifest of the view. Never a
// secret's (secrets.h): a manifest holding a secret's bytes would quote them
// in its errors, so bytes the view cannot vouch for are checked once read.
Result<std::string> read_policy_file(const View& view, const ViewEntry& e) {
  auto text = view.read(e);
  if (text && view.bytes_are_secret(e, *text)) return detail::secret_read_refusal(e);
  return text;
}

}  // namespace

namespace {

// A rev view that asks for what will land (ViewSpec::merge) and whose base
// is not an ancestor of its rev becomes the view of the merge of rev into
// base: w.view_spec.rev names the merge commit, w.merge says how it came.
Status merge_rev_into_base(Workspace& w, const std::string& base_commit) {
  if (w.view_spec.source != ViewSource::rev || !w.view_spec.merge || w.view_spec.base.empty()) return Ok{};
  auto rev = w.repo->resolve_commit(w.view_spec.rev);
  if (!rev) return rev.error();
  auto merge = merge_for_check(*w.repo, base_commit, *rev);
  if (!merge) return merge.error();
  w.merge = std::move(merge).value();
  if (w.merge.merged) w.view_spec.rev = w.merge.commit;
  return Ok{};
}

// The config of the view's base commit, then the view, read under its size
// cap. The policy comes from the base, never from the change (ws(7),
// WORKSPACE CONFIGURATION): the view's own .ws/config.json is a proposal,
// checked by the build.
Status open_view_under_base_policy(Workspace& w, const OpenOptions& options) {
  w.view_spec = options.view;
  auto base = view_base_commit(*w.repo, options.view);
  if (!base) return base.error();
  if (auto st = merge_rev_into_base(w, *base); !st) return st.error();
  auto config = config_at_commit(*w.repo, *base);
  if (!config) return config.error();
  w.config = std::move(config).value();
  auto view = open_view(*w.repo, w.root, w.view_spec, w.config.size_cap);
  if (!view) return view.error();
  w.view = std::move(view).value();
  return Ok{};
}

// The default pack with the view's .ws/kinds over it; what the base never
// reads stays never read (base_kinds.h).
Status load_kinds(Workspace& w, const OpenOptions& options, const DefinitionCacheHooks& cache) {
  auto defaults = read_manifest_dir(options.kinds_dir.empty() ? default_kinds_dir() : options.kinds_dir);
  if (!defaults) return defaults.error();
  std::map<std::string, std::string> overlay;
  for (const auto& e : w.view.entries()) {
    if (e.status == ChangeStatus::deleted || !is_kind_manifest_path(e.path)) continue;
    auto text = read_policy_file(w.view, e);
    if (!text) return text.error();
    overlay[e.path] = std::move(text).value();
  }
  // A pack this version of the tool validated before (its definition cache
  // names it) need not have its schemas compiled again just to be checked.
  std::string validated = cache.validated_kind_digest ? cache.validated_kind_digest(*w.repo) : std::string();
  auto pack = KindPack::from_texts(*defaults, overlay, validated);
  if (!pack) return pack.error();
  w.kinds = std::move(pack).value();
  return keep_base_never_read(*w.repo, w.view.base_commit(), *defaults, overlay, w.kinds);
}

}  // namespace

Result<Workspace> open_workspace_with(const OpenOptions& options, const DefinitionCacheHooks& cache) {
  auto repo = Repository::open(options.dir);
  if (!repo) return repo.error();
  return open_workspace_with(options, std::make_shared<Repository>(std::move(repo).value()), cache);
}

Result<Workspace> open_workspace_with(const OpenOptions& options, std::shared_ptr<Repository> repo,
                                      const DefinitionCacheHooks& cache) {
  Workspace w;
  w.session = options.session;
  w.repo = std::move(repo);
  auto notices = check_interrupted_apply(*w.repo, options.interrupted_apply);
  if (!notices) return notices.error();
  w.notices = std::move(notices).value();
  if (cache.prefetch) w.cache_prefetch = cache.prefetch(*w.repo);

  if (!w.repo->is_bare()) {
    auto root = WorkspaceRoot::open(w.repo->workdir(), detail::home_directory());
    if (!root) return root.error();
    w.root = std::make_shared<const WorkspaceRoot>(std::move(root).value());
  }
  if (auto st = open_view_under_base_policy(w, options); !st) return st.error();
  if (auto st = load_kinds(w, options, cache); !st) return st.error();
  return w;
}

Result<View> whole_view(const Workspace& ws) {
  ViewSpec spec = ws.view_spec;
  spec.changes_only = false;
  return open_view(*ws.repo, ws.root, spec, ws.config.size_cap);
}

std::optional<std::string> read_view_path(const Workspace& ws, const std::string& path) {
  // Never a secret's (and the view refuses a secret's bytes under any path),
  // nor a file of a kind that is never read.
  if (is_secret_path(path)) return std::nullopt;
  if (const Kind* kind = ws.kinds.route(path); kind && kind->never_read) return std::nullopt;
  if (const ViewEntry* e = ws.view.find(path)) {
    auto bytes = ws.view.read(*e);
    if (!bytes) return std::nullopt;
    return std::move(bytes).value();
  }
  // A changes-only view holds every changed path: one it lacks is the base's.
  if (!ws.view_spec.changes_only || !ws.repo || ws.view.base_commit().empty()) return std::nullopt;
  auto entry = ws.repo->entry_at(ws.view.base_commit(), path);
  if (!entry || !*entry || is_link_mode((*entry)->mode)) return std::nullopt;
  auto bytes = ws.view.content().read_blob((*entry)->blob_id.hex());
  if (!bytes) return std::nullopt;
  return std::move(bytes).value();
}

}  // namespace ws
