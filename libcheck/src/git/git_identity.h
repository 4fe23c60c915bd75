// Who writes a commit: the author and committer identities, read as git
// reads them (ws-commit(1) and ws-apply(1), ENVIRONMENT). Only the git layer
// reads GIT_* variables (docs/architecture.md, "Layers"), so this is the one
// place that reads GIT_AUTHOR_* and GIT_COMMITTER_*.
#pragma once

#include "git_util.h"
#include "libcheck/result.h"

namespace ws::git {

enum class Identity { author, committer };

// "Name" and "email" from GIT_AUTHOR_NAME / _EMAIL (or GIT_COMMITTER_*),
// else git config user.name / user.email; the time from GIT_AUTHOR_DATE (or
// GIT_COMMITTER_DATE: "@<seconds> [+hhmm]" or "YYYY-MM-DDTHH:MM:SSZ"), else
// now. Errc::environment when the name or e-mail is missing or holds a
// control character (it would end the commit's header line, or forge a
// trailer in the Approved-by: line ws-apply writes).
Result<Signature> identity_signature(git_repository* repo, Identity who);

}  // namespace ws::git
