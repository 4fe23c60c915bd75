// open_workspace (workspace.h): the workspace layer's opening, handed the
// definition cache this layer owns, so that ws-ls and ws-grep skip
// compiling a kind pack the cache names as validated, and a build finds its
// cache loaded (docs/architecture.md, "Layers").
#include "libcheck/compile.h"
#include "libcheck/workspace.h"

#include "definition_cache.h"

namespace ws {

Result<Workspace> open_workspace(const OpenOptions& options) {
  DefinitionCacheHooks cache;
  cache.validated_kind_digest = [](const Repository& repo) {
    return DefinitionCache::validated_kind_digest(definition_cache_file(repo), cache_version());
  };
  if (options.prefetch_cache)
    cache.prefetch = [](const Repository& repo) {
      return CachePrefetch::start(definition_cache_file(repo), cache_version());
    };
  return open_workspace_with(options, cache);
}

}  // namespace ws
