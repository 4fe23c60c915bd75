// Compiling a changeset (ws-build(1)): every changed definition is read
// through its kind's reader and its references resolved against the
// pending-definitions overlay (base − deleted/changed + added/changed); every
// unchanged definition that references a symbol or member the changeset
// removes is reported at its own line. The library never prints: the caller
// renders BuildResult::diagnostics (render.h) and the summary.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "libcheck/change_impact.h"
#include "libcheck/diagnostic.h"
#include "libcheck/kinds.h"
#include "libcheck/known_definitions.h"
#include "libcheck/pathspec.h"
#include "libcheck/progress.h"
#include "libcheck/result.h"
#include "libcheck/view.h"
#include "libcheck/workspace.h"

namespace ws {

class DefinitionCache;

struct BuildOptions {
  bool all = false;        // check every definition of the view, not only changes
  bool use_cache = true;   // false: the definition cache is neither read nor written
  // false: the cache is read, and the base's index made when missing, but
  // what this build adds to the cache is not written back (an editor's
  // buffers change at every key; ws-lsp(1) saves none of them).
  bool save_cache = true;
  // Which changes are compiled (with `all`: which definitions are checked).
  // The overlay is always the whole view. Empty: everything.
  std::vector<Pathspec> pathspecs;
  // Told how many of the definitions this build must read (those the cache
  // does not already hold) have been read; empty: not told. See progress.h.
  ProgressFn progress;
  // Fill BuildSummary::checked (the JUnit report's test cases).
  bool list_checked = false;
  // When set, filled with the definitions the changeset affects
  // (change_impact.h), for ws-apply --show and ws-build's plan; the walk
  // over those it affects transitively stops at `impact_limits`.
  ChangeImpact* impact = nullptr;
  ImpactLimits impact_limits;
  // Whether `impact` says which fields each change touches
  // (DefinitionChange::fields): a plan shows them, the Impact section not.
  bool impact_fields = true;
  // Whether `impact` lists the unchanged definitions that name a changed
  // one directly (ChangeImpact::referrers), as ws-apply --show prints them;
  // ws-build shows the transitive list (`impacted`) instead.
  bool impact_referrers = true;
};

struct BuildStats {
  std::size_t parsed = 0;        // files read through a reader in this build
  std::size_t cache_hits = 0;    // base definitions taken from the cache
  std::size_t cache_misses = 0;  // base definitions the cache lacked (then parsed)
  std::size_t partly_read = 0;   // checked definitions whose references may be incomplete
  bool cache_rebuilt = false;    // a cache file existed but was unusable (version, damage)
  // How the base commit's definitions were had: every unchanged entry read
  // (whole), or the saved index of the base (indexed: only the changed
  // entries read), see build().
  enum class Base { whole, indexed } base = Base::whole;
  std::string cache_error;       // the cache could not be written (the build is still right)
};

struct BuildResult {
  std::vector<Diagnostic> diagnostics;  // sorted with diag_less
  BuildSummary summary;                 // counts filled by tally()
  BuildStats stats;
};

// Builds the workspace's view, with the definition cache of its repository
// unless options.use_cache is false. With the cache, a build also keeps an
// index of its base commit's definitions beside it (a few base commits'
// worth), so that the next build on that base reads only the changed
// entries and the definitions they name or break; the answer is the same
// either way. Errors only for trouble outside the
// definitions (an unreadable object database, a working-tree I/O error);
// everything wrong with a definition is a diagnostic.
Result<BuildResult> build(const Workspace& ws, const BuildOptions& options);

// The core, without git or disk: a view, its kinds and configuration, and an
// optional cache (null: parse everything). The cache is only read and added
// to here; saving it is the caller's business.
Result<BuildResult> compile_view(const View& view, const KindPack& kinds,
                                 const WorkspaceConfig& config, const BuildOptions& options,
                                 DefinitionCache* cache);

// What the saved index of the view's base commit knows of the definitions
// the view leaves unchanged (known_definitions.h), when a build on that base
// saved one for this tool version and workspace and its tables check out;
// null otherwise. Reads the index file only: nothing is built or written.
std::unique_ptr<KnownDefinitions> saved_base_definitions(const Workspace& ws);

// Where build() keeps the definition cache: <common git dir>/ws/cache/definitions.
std::string definition_cache_file(const Repository& repo);

// The version of libcheck ("0.1.0"): what the JSON and SARIF reports name.
const char* tool_version();

// What every cache key names: the version, the tree-sitter runtime and
// grammars, and the revision of the readers' output, so that a cache written
// by a build whose readers gave other results is never taken for current.
const std::string& cache_version();

}  // namespace ws
