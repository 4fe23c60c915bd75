#include "common/proposal_text.h"

#include <algorithm>
#include <ctime>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/diff_colour.h"
#include "common/proposal_review_text.h"
#include "libcheck/terminal_text.h"

namespace wscli {

namespace {

// The indented line under a list entry that says where the proposal stands.
std::string state_line(const ws::ProposalInfo& p) {
  if (p.state == ws::ProposalState::stale) {
    std::string out = fmt::format("    stale: '{}' is now at {}{}", shown(ws::branch_display(p.branch)),
                                  p.branch_tip.empty() ? "nothing" : p.branch_tip.substr(0, 12),
                                  p.moved_by.empty() ? "" : " ('" + shown(p.moved_by) + "')");
    if (p.colliding_paths.empty()) return out + "; no path collides (--rebase can apply it)\n";
    out += "; changed on both sides:";
    for (const auto& c : p.colliding_paths) out += " " + shown(c);
    return out + "\n";
  }
  if (p.state == ws::ProposalState::superseded && !p.superseded_by.empty())
    return fmt::format("    superseded by {}\n", p.superseded_by.substr(0, 12));
  if (p.state == ws::ProposalState::applied) return fmt::format("    applied as {}\n", p.applied_as.substr(0, 12));
  if (p.state == ws::ProposalState::rejected) return rejection_line(p);
  return "";
}

// The message, each line indented by four spaces, as `git log` shows it; a
// line feed is the message's own, every other control character is escaped.
std::string indented_message(const std::string& message) {
  std::string out;
  std::string safe = ws::terminal_safe(message, ws::LineBreaks::keep);
  std::size_t start = 0;
  while (start < safe.size()) {
    std::size_t nl = safe.find('\n', start);
    out += "    ";
    out.append(safe, start, nl == std::string::npos ? std::string::npos : nl - start);
    out += '\n';
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

}  // namespace

std::string age(std::int64_t when) {
  std::int64_t s = std::time(nullptr) - when;
  if (s < 0) s = 0;
  auto unit = [](std::int64_t n, const char* what) { return fmt::format("{} {}{} ago", n, what, n == 1 ? "" : "s"); };
  if (s < 60) return unit(s, "second");
  if (s < 3600) return unit(s / 60, "minute");
  if (s < 86400) return unit(s / 3600, "hour");
  return unit(s / 86400, "day");
}

std::string proposal_list_entry(const ws::ProposalInfo& p) {
  return fmt::format("{}  {:<10}  {}  {}  {}  {}\n", p.id.substr(0, 12), ws::proposal_state_name(p.state),
                     shown(p.session), shown(ws::branch_display(p.branch)), age(p.time), shown(p.subject)) +
         state_line(p);
}

std::string proposal_show_text(const ws::ShowResult& shown_proposal, bool stat_only, bool color,
                               const std::string& review) {
  const ws::ProposalInfo& p = shown_proposal.info;
  std::string first = "proposal " + p.id;
  std::string out = (color ? commit_colour(first) : first) + "\n";
  out += fmt::format("Session: {}\nBranch:  {}\nBase:    {}\nAuthor:  {}\nState:   {}\n\n", shown(p.session),
                     shown(p.branch), p.base.empty() ? "(none)" : p.base, shown(p.author),
                     ws::proposal_state_name(p.state));
  out += review;
  out += indented_message(p.message);
  std::string stat = shown_stat(shown_proposal.stat, shown_proposal.files);
  out += "\n" + (color ? coloured_stat(stat) : stat);
  if (!stat_only) {
    out += "\n";
    if (color) out += coloured_patch(shown_proposal.patch);
    else ws::append_terminal_safe(out, shown_proposal.patch, ws::LineBreaks::keep);
  }
  return out;
}

std::string shown_stat(const std::string& stat, const std::vector<ws::FileStat>& files) {
  auto breaks_line = [](const std::string& path) { return path.find('\n') != std::string::npos; };
  bool one_line_names = std::none_of(files.begin(), files.end(), [&](const ws::FileStat& f) {
    return breaks_line(f.path) || breaks_line(f.old_path);
  });
  if (one_line_names) return ws::terminal_safe(stat, ws::LineBreaks::keep);
  // A name with a line feed (only a hand-made tree has one) would split its
  // row and could forge the rows after it: the stat is drawn again from the
  // file list, with every name escaped on one line.
  std::vector<ws::FileStat> escaped = files;
  for (auto& f : escaped) {
    f.path = shown(f.path);
    if (!f.old_path.empty()) f.old_path = shown(f.old_path);
  }
  return ws::terminal_safe(ws::stat_text(escaped), ws::LineBreaks::keep);
}

}  // namespace wscli
