// The plan of a changeset as JSON Lines records (ws(7), JSON OUTPUT): what
// `ws-build --json` writes before its summary and `ws-apply --show --json`
// after its proposal record, from one ChangeImpact, so the two are the same
// bytes for the same change. Schemas: schemas/output/ws-build.json and
// ws-apply.json.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/change_impact.h"

namespace ws {

// A "change" record per changed definition, an "impact" record per impacted
// one, and an "Impact-Truncated" record last when a limit stopped the walk:
//   {"type": "change", "version": 1, "change", "kind", "name", "path",
//    "old_name" (renamed), "old_path" (moved), "fields" (renamed, modified)}
//   {"type": "impact", "version": 1, "kind", "name", "path", "changed",
//    "depth", "reaches": {"kind", "name", "change"},
//    "through": [{"kind", "name", "path"}]}
//   {"type": "Impact-Truncated", "version": 1, "limit": "definitions" or
//    "depth", "max"}
// A definition without a name has "name": null.
std::vector<nlohmann::ordered_json> plan_records(const ChangeImpact& impact);

}  // namespace ws
