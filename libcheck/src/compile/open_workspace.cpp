// open_workspace (workspace.h): the workspace layer's opening, handed the
// definition cache this layer owns, so that ws-ls and ws-grep skip
// compiling a kind pack the cache names as validated, and a build finds its
// cache loaded (docs/architecture.md, "Layers").
#include "libcheck/compile.h"
#include "libcheck/workspace.h"

#include "definition_cache.h"

namespace ws {

namespace {

DefinitionCacheHooks definition_cache_hooks(const OpenOptions& options) {
  DefinitionCacheHooks cache;
  cache.validated_kind_digest = [](const Repository& repo) {
    return DefinitionCache::validated_kind_digest(definition_cache_file(repo), cache_version());
  };
  if (options.prefetch_cache)
    cache.prefetch = [](const Repository& repo) {
      return CachePrefetch::start(definition_cache_file(repo), cache_version());
    };
  return cache;
}

}  // namespace

Result<Workspace> open_workspace(const OpenOptions& options) {
  return open_workspace_with(options, definition_cache_hooks(options));
}

Result<Workspace> open_workspace(const OpenOptions& options, std::shared_ptr<Repository> repo) {
  return open_workspace_with(options, std::move(repo), definition_cache_hooks(options));
}

}  // namespace ws
