#include "common/proposal_review_text.h"

#include <sstream>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/proposal_text.h"
#include "libcheck/json_output.h"
#include "libcheck/proposal.h"
#include "libcheck/render.h"

namespace wscli {

namespace {

// Every line of `text` with two spaces before it.
std::string indented(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    out += "  ";
    out.append(text, start, nl == std::string::npos ? std::string::npos : nl - start + 1);
    if (nl == std::string::npos) {
      out += '\n';
      break;
    }
    start = nl + 1;
  }
  return out;
}

// The report of the rebuild, as ws-build's human renderer writes it.
std::string build_report(const ws::ProposalReview& review, bool color) {
  if (!review.not_built.empty()) return shown(review.not_built) + "\n";
  std::ostringstream report;
  ws::RenderOptions ro;
  ro.color = color;
  const ws::Workspace& w = *review.workspace;
  // Source lines to quote; never a secret's (the view refuses to read one).
  ro.source = [&w](const std::string& path) { return ws::read_view_path(w, path); };
  auto consumer = ws::make_consumer(ws::OutputFormat::human, report, ro);
  ws::render_all(*consumer, review.diagnostics, review.summary);
  return report.str();
}

// "agent 'Triage'", or "agent (no name)" for a file that carries none.
std::string definition(const std::string& kind, const std::string& name) {
  return shown(kind) + (name.empty() ? std::string(" (no name)") : " '" + shown(name) + "'");
}

std::string change_line(const ws::DefinitionChange& c) {
  std::string line = fmt::format("{:<9} {}", ws::definition_change_name(c.change), definition(c.kind, c.name));
  if (c.change == ws::DefinitionChangeKind::renamed)
    line = fmt::format("{:<9} {} to '{}'", "renamed", definition(c.kind, c.old_name), shown(c.name));
  line += "  " + shown(c.path);
  if (!c.old_path.empty()) line += " (was " + shown(c.old_path) + ")";
  return line + "\n";
}

std::string referrer_line(const ws::Referrer& r) {
  std::string line = definition(r.kind, r.name) + "  " + shown(r.path) + ": refers to ";
  for (std::size_t i = 0; i < r.reaches.size(); ++i) {
    const ws::ReachedName& n = r.reaches[i];
    line += (i ? ", " : "") + definition(n.kind, n.name) + " (" + ws::definition_change_name(n.change) + ")";
  }
  return line + "\n";
}

}  // namespace

std::string review_text(const ws::ProposalReview& review, bool color) {
  std::string out = "Build:\n" + indented(build_report(review, color));
  if (!review.not_built.empty()) return out + "\n";
  std::string changes, referrers;
  for (const auto& c : review.impact.changes) changes += change_line(c);
  for (const auto& r : review.impact.referrers) referrers += referrer_line(r);
  out += "Definitions:\n" + indented(changes.empty() ? "none\n" : changes);
  out += "Referrers:\n" + indented(referrers.empty() ? "none\n" : referrers);
  return out + "\n";
}

std::string rejection_line(const ws::ProposalInfo& p) {
  if (p.rejected_by.empty()) return "    rejected (no reason recorded)\n";
  std::string reason = p.reason;
  // A record written by hand may hold any number of bytes: the list shows
  // as many as --reject -m takes.
  if (reason.size() > ws::kMaxRejectReason) reason = reason.substr(0, ws::kMaxRejectReason) + "...";
  return fmt::format("    rejected by {} {}: {}\n", shown(p.rejected_by), age(p.rejected_at), shown(reason));
}

}  // namespace wscli

namespace wscli {

namespace {

// The diagnostics as ws-build --format json writes them: its diagnostic
// records, the one JSON shape of a diagnostic (libcheck/render.h).
nlohmann::ordered_json diagnostics_json(const ws::ProposalReview& review) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& d : review.diagnostics) out.push_back(ws::diagnostic_json(d));
  return out;
}

}  // namespace

void add_review_json(nlohmann::ordered_json& shown, const ws::ProposalReview& review) {
  nlohmann::ordered_json build{{"built", review.not_built.empty()}};
  if (!review.not_built.empty()) {
    build["not_built"] = review.not_built;
  } else {
    const ws::BuildSummary& s = review.summary;
    build.update({{"clean", s.errors == 0}, {"errors", s.errors}, {"warnings", s.warnings},
                  {"summary", ws::summary_line(s)}, {"diagnostics", diagnostics_json(review)}});
  }
  shown["build"] = std::move(build);
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const auto& c : review.impact.changes) {
    nlohmann::ordered_json j{{"change", ws::definition_change_name(c.change)}, {"kind", c.kind}, {"name", c.name},
                     {"path", c.path}};
    if (!c.old_name.empty()) j["old_name"] = c.old_name;
    if (!c.old_path.empty()) j["old_path"] = c.old_path;
    changes.push_back(std::move(j));
  }
  nlohmann::ordered_json referrers = nlohmann::ordered_json::array();
  for (const auto& r : review.impact.referrers) {
    nlohmann::ordered_json reaches = nlohmann::ordered_json::array();
    for (const auto& n : r.reaches)
      reaches.push_back({{"kind", n.kind}, {"name", n.name}, {"change", ws::definition_change_name(n.change)}});
    referrers.push_back({{"kind", r.kind}, {"name", r.name}, {"path", r.path}, {"reaches", std::move(reaches)}});
  }
  shown["definitions"] = std::move(changes);
  shown["referrers"] = std::move(referrers);
}

std::string pruned_line(const ws::PrunedProposal& p, bool dry_run) {
  const ws::ProposalInfo& i = p.info;
  return fmt::format("{} {}  {:<10}  {}  {}  {}  {}\n", dry_run ? "would prune" : "pruned", i.id.substr(0, 12),
                     ws::proposal_state_name(i.state), shown(i.session), shown(ws::branch_display(i.branch)), age(p.settled_at),
                     shown(i.subject));
}

nlohmann::ordered_json pruned_json(const ws::PrunedProposal& p, bool dry_run) {
  const ws::ProposalInfo& i = p.info;
  auto j = ws::json_record("pruned");
  j.update({{"id", i.id},           {"state", ws::proposal_state_name(i.state)},
            {"session", i.session}, {"branch", i.branch},
            {"subject", i.subject}, {"settled_at", p.settled_at},
            {"refs", p.refs},       {"dry_run", dry_run}});
  return j;
}

}  // namespace wscli
