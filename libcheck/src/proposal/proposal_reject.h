// Private to the proposal modules: the rejection record (proposal_desk.h).
#pragma once

#include <string>

#include "git_util.h"
#include "libcheck/proposal.h"

namespace ws::proposal {

// Fills info.rejected_by, rejected_at and reason from the commit
// refs/ws/rejected/<id> points at (`record`), when it is a rejection record
// of this proposal (a commit whose first parent is it); leaves them empty
// for a rejection without one.
void read_rejection(git_repository* repo, const std::string& record, ProposalInfo& info);

}  // namespace ws::proposal
