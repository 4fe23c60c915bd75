// Who writes a commit: the author and committer identities, read as git
// reads them (ws-commit(1) and ws-apply(1), ENVIRONMENT). Only the git layer
// reads GIT_* variables (docs/architecture.md, "Layers"), so this is the one
// place that reads GIT_AUTHOR_* and GIT_COMMITTER_*.
#pragma once

#include "git_util.h"
#include "libcheck/result.h"

#include <optional>
#include <string>

namespace ws::git {

enum class Identity { author, committer };

// A commit time: seconds since the epoch and the zone, in minutes east of UTC.
struct GitDate {
  git_time_t when = 0;
  int offset = 0;
};

// A date in one of the formats git-commit(1) documents under DATE FORMATS:
// git's internal "<seconds> +hhmm" (also "@<seconds>"), RFC 2822
// ("Thu, 07 Apr 2005 22:13:13 +0200") or ISO 8601 ("2005-04-07T22:13:13",
// a blank for the T, optional fraction and zone; no zone is local time).
// nullopt for anything else: git's looser approxidate ("yesterday") is not
// read, so a date is never guessed.
std::optional<GitDate> parse_git_date(const std::string& text);

// "Name" and "email" from GIT_AUTHOR_NAME / _EMAIL (or GIT_COMMITTER_*),
// else git config user.name / user.email; the time from GIT_AUTHOR_DATE (or
// GIT_COMMITTER_DATE, read by parse_git_date), else now. Errc::environment
// when the name or e-mail is missing or holds a control character (it would
// end the commit's header line, or forge a trailer in the Approved-by: line
// ws-apply writes), or when the date is set and is not one git reads.
Result<Signature> identity_signature(git_repository* repo, Identity who);

}  // namespace ws::git
