// The human output of ws-apply --list and --show, and of ws-commit's
// diffstat. A proposal is written by someone else — its message, its author's
// name, its paths and its bytes — and is read by the approver on a terminal,
// so every piece of it goes through ws::terminal_safe() (ws(7), TERMINAL
// OUTPUT): what the approver sees is what is there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "libcheck/proposal.h"

namespace wscli {

// "3 minutes ago": how long before now `when` (seconds since the epoch) was.
std::string age(std::int64_t when);

// One proposal of `ws-apply --list`: the line "ID  STATE  SESSION  BRANCH  AGE
// SUBJECT", then an indented line for a stale, superseded, applied or
// rejected one.
std::string proposal_list_entry(const ws::ProposalInfo& p);

// `ws-apply --show`: the header (id, session, branch, base, author, state),
// `review` (review_text, or empty), the message indented by four spaces, the
// diffstat, and unless `stat_only` the unified diff; with `color`, as git
// colours them (diff_colour.h).
std::string proposal_show_text(const ws::ShowResult& shown, bool stat_only, bool color = false,
                               const std::string& review = {});

// The diffstat `stat` of `files` as it may be shown on a terminal: control
// characters escaped, and one row per file whatever its name holds.
std::string shown_stat(const std::string& stat, const std::vector<ws::FileStat>& files);

}  // namespace wscli
