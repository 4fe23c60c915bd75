// What the base commit never reads stays never read, whatever the view's
// kind manifests say (ws(7), KIND MANIFESTS): the view's .ws/kinds decide
// how definitions are read, never whether a file may be read at all.
#pragma once

#include <map>
#include <string>

#include "libcheck/kinds.h"
#include "libcheck/repository.h"
#include "libcheck/result.h"

namespace ws {

// Refuses (Errc::invalid, naming the manifest) a view pack `view_pack`,
// loaded from `defaults` and the view's manifests `overlay`, that removes,
// moves or makes readable a kind the pack of `base_commit` never reads, or
// lets another kind read its files. Reads the base's manifests only when
// they differ from `overlay`; a base pack that does not load decides
// nothing (the view may be its fix).
Status keep_base_never_read(const Repository& repo, const std::string& base_commit,
                            const std::map<std::string, std::string>& defaults,
                            const std::map<std::string, std::string>& overlay, const KindPack& view_pack);

}  // namespace ws
