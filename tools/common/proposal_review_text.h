// What ws-apply --show prints between the header and the author's message
// (ws-apply(1), --show): the build result and the definitions the change
// affects. Names, paths and diagnostics come from the proposal, so all of it
// is terminal-safe (ws(7), TERMINAL OUTPUT). Each line is indented by two
// spaces, the message's by four, so no line of a message can pass for one
// of these.
#pragma once

#include <string>

#include "libcheck/proposal_desk.h"

namespace wscli {

// "Build:" and the report ws-build would print (the human renderer, in
// colour with `color`), then "Definitions:" and "Referrers:"; ends with a
// blank line.
std::string review_text(const ws::ProposalReview& review, bool color);

// The indented line under a rejected proposal of --list: who, when and why.
std::string rejection_line(const ws::ProposalInfo& p);

}  // namespace wscli

#include <nlohmann/json.hpp>

namespace wscli {

// --show --json's members for the review: "build" (clean, errors, warnings,
// summary, not_built, and the diagnostics as ws-build --json writes them),
// "definitions" and "referrers".
void add_review_json(nlohmann::ordered_json& shown, const ws::ProposalReview& review);

// ws-apply --prune, one proposal: "pruned ID  STATE  SESSION  BRANCH  AGE
// SUBJECT" ("would prune ..." with --dry-run), or its JSON record.
std::string pruned_line(const ws::PrunedProposal& p, bool dry_run);
nlohmann::ordered_json pruned_json(const ws::PrunedProposal& p, bool dry_run);

}  // namespace wscli
