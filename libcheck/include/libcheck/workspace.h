// Everything a tool opens before it works: the repository, the confined root,
// the kind pack (defaults + the view's .ws/kinds), the workspace config (the
// view's base commit's .ws/config.json), and the view.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libcheck/file_stamp.h"
#include "libcheck/ignore_glob.h"
#include "libcheck/interrupted_apply.h"
#include "libcheck/kinds.h"
#include "libcheck/merge_result.h"
#include "libcheck/repository.h"
#include "libcheck/result.h"
#include "libcheck/rule_config.h"
#include "libcheck/view.h"
#include "libcheck/workspace_root.h"

namespace ws {

enum class UnroutedPolicy { error, warning, ignore };

// The "approval" object of .ws/config.json (ws(7)): what ws-apply asks of
// the approver.
struct ApprovalConfig {
  // Refuse an approver whose identity equals the proposal's author or the
  // identity that staged it (ws-apply(1), "distinct approver").
  bool distinct_approver = false;
};

// Paths that make git, CI or hooks run programs, protected unless the
// config's "unprotected" names them (ws(7), WORKSPACE CONFIGURATION): as
// written in "unprotected" (".gitattributes", ".github/", ...), in order.
const std::vector<std::string>& default_protected_names();
// The protected_paths entries those names stand for: ".gitattributes" is
// "**/.gitattributes", since git reads one in every folder.
std::vector<std::string> default_protected_paths();

// .ws/config.json of the view's base commit: the policy a change is judged
// by is never the one it proposes (ws(7), WORKSPACE CONFIGURATION).
struct WorkspaceConfig {
  // Files in a folder no kind uses (path_route.h).
  UnroutedPolicy unrouted = UnroutedPolicy::warning;
  // Files that are no definition and that ws-build does not report, in order.
  std::vector<IgnoreGlob> ignore;
  // Every path protected besides .git/ and .secrets/ (path_policy.h): the
  // default-protected paths not in "unprotected", then "protected".
  std::vector<std::string> protected_paths = default_protected_paths();
  std::uint64_t size_cap = kDefaultSizeCap;
  ApprovalConfig approval;
  // "rules", "rule_paths", "require_suppression_reason" (rule_config.h).
  RuleConfig rules;
};
Result<WorkspaceConfig> parse_workspace_config(std::string_view json_text);

struct OpenOptions {
  std::string dir = ".";            // -C DIR
  std::string session = "default";  // --session / WS_SESSION
  ViewSpec view;
  std::string kinds_dir;            // default pack; empty: default_kinds_dir()
  // Load the definition cache on another thread while the view is
  // computed, for a caller about to build() (the two are independent, and
  // at 100,000 definitions the load is a tenth of a warm build).
  bool prefetch_cache = false;
  // What to do on finding an interrupted apply in this worktree.
  InterruptedApply interrupted_apply = InterruptedApply::report;
};

// A definition cache being loaded for the first build() of a workspace
// (compile.h); opaque here.
struct CachePrefetch;

struct Workspace {
  // Shared with a caller that opened it (open_workspace's second form).
  std::shared_ptr<Repository> repo;
  std::shared_ptr<const WorkspaceRoot> root;  // null for a bare repository
  KindPack kinds;           // the defaults and the view's .ws/kinds
  WorkspaceConfig config;   // from the view's base commit, never from the view
  View view;
  ViewSpec view_spec;  // what `view` was opened as (OpenOptions::view)
  // With ViewSpec::merge: the merge the view is, when one was needed
  // (merge.merged); view_spec.rev then names the merge commit.
  MergeResult merge;
  std::string session;
  std::vector<std::string> warnings;  // e.g. a workspace kind manifest that did not load
  // Lines for stderr about an interrupted apply (check_interrupted_apply).
  std::vector<std::string> notices;
  std::shared_ptr<CachePrefetch> cache_prefetch;  // with OpenOptions::prefetch_cache
};

// What opening a workspace asks of the compile's definition cache, handed in
// so that this layer never reads the cache (docs/architecture.md, "Layers"):
// the digest of the kind pack the cache last validated ("" for none: the
// schemas are compiled to be checked), and a load of the cache started on
// another thread. Either may be empty.
struct DefinitionCacheHooks {
  std::function<std::string(const Repository&)> validated_kind_digest;
  std::function<std::shared_ptr<CachePrefetch>(const Repository&)> prefetch;
};

Result<Workspace> open_workspace_with(const OpenOptions& options, const DefinitionCacheHooks& cache);
// The same over `repo`, already open at options.dir.
Result<Workspace> open_workspace_with(const OpenOptions& options, std::shared_ptr<Repository> repo,
                                      const DefinitionCacheHooks& cache);

// open_workspace_with the definition cache's hooks, the prefetch only with
// options.prefetch_cache. Defined by the compile layer, which owns the
// cache (compile/open_workspace.cpp).
Result<Workspace> open_workspace(const OpenOptions& options);
// The same over `repo`, already open at options.dir: the view then reads
// trees that `repo`'s object cache already holds (ws-apply reads the
// proposal's trees once, for its checks and its view).
Result<Workspace> open_workspace(const OpenOptions& options, std::shared_ptr<Repository> repo);

// What opening a workspace on the index's view (ViewSource::staged) reads
// that may change while a process keeps the workspace: the base commit,
// the index file (its stamp and its trailing checksum), and the default
// kind pack's folder and manifests. The rest of such a workspace comes from
// these: the base's configuration, the view's .ws/kinds from the index.
// Taken before an open and equal to one taken later, an open then would
// give the same workspace (ws mcp keeps the one its write and delete use,
// ws-mcp(1), WARM STATE).
struct StagedSources {
  std::string base_commit;
  std::string index_checksum;  // the index's last 20 bytes, as read
  std::vector<FileStamp> files;  // the index, the kind pack's folder, its manifests by name
  bool operator==(const StagedSources&) const = default;
};
Result<StagedSources> staged_sources(const Repository& repo, const OpenOptions& options);

// The workspace's view with every entry: `view` itself, or when that holds
// the changes only (ViewSpec::changes_only), the same view opened whole.
Result<View> whole_view(const Workspace& ws);

// The bytes of `path` as the view has them, also for an unchanged file that
// a changes-only view leaves out; nullopt for a path the view does not
// hold or cannot read.
std::optional<std::string> read_view_path(const Workspace& ws, const std::string& path);

// A workspace kind manifest: .ws/kinds/<name>.json, directly in that folder.
bool is_kind_manifest_path(std::string_view path);

// Files the tools treat as workspace configuration, never as definitions:
// .ws/**, and the root .gitignore/.gitattributes.
bool is_workspace_config_path(std::string_view path);

// Session names are id segments: [A-Za-z0-9][A-Za-z0-9._-]*.
bool is_valid_session(std::string_view s);

}  // namespace ws
