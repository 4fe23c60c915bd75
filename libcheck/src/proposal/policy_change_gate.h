// ws-apply's policy-change gate (policy_change.h), on the changes of a proposal.
#pragma once

#include <string>
#include <vector>

#include "libcheck/result.h"
#include "libcheck/workspace.h"
#include "proposal_internal.h"

namespace ws {

// Refuses (Errc::refused) a proposal whose changes touch .ws/ unless
// `allowed` (--allow-policy-change), naming the policy paths and the flag.
// `id` is the proposal's id as messages show it.
Status refuse_policy_change(const std::vector<proposal::TreeChange>& changes, bool allowed, const std::string& id);

// Refuses (Errc::refused) a change the proposal policy of `config` refuses
// (refuse_entry): for a proposal rebased onto a tip whose config differs
// from the one of the base it was checked against.
Status refuse_by_policy_of(const std::vector<proposal::TreeChange>& changes, const WorkspaceConfig& config,
                           const std::string& id);

}  // namespace ws
