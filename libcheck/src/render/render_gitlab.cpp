// GitLab Code Quality report: a JSON array of issues
//   {"description", "check_name", "fingerprint", "severity",
//    "location": {"path", "lines": {"begin"}}}
// GitLab matches issues between the base and head reports by fingerprint, so
// it must be stable across runs and machines: it is FNV-1a 64 (offset basis
// 0xcbf29ce484222325, prime 0x100000001b3) over the code, path, line and
// message joined by NUL bytes, as 16 lower-case hex digits. FNV-1a is written
// out here rather than taken from a library because it is ten lines, has no
// platform or version dependence, and a report is not a security boundary. An
// exact repeat of an issue in one report hashes its occurrence number too, so
// the two stay distinct while the first keeps its fingerprint.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "libcheck/json_output.h"
#include "libcheck/render.h"
#include "render_common.h"

namespace ws::render_detail {

namespace {

using ojson = nlohmann::ordered_json;

class Fnv1a64 {
 public:
  void add(std::string_view s) {
    for (char c : s) {
      hash_ ^= static_cast<unsigned char>(c);
      hash_ *= 0x100000001b3ULL;
    }
  }
  void separator() { add(std::string_view("\0", 1)); }
  std::string hex() const { return fmt::format("{:016x}", hash_); }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

const char* gitlab_severity(Severity s) {
  switch (s) {
    case Severity::error: return "major";
    case Severity::warning: return "minor";
    case Severity::note: return "info";
  }
  return "major";
}

class GitlabConsumer final : public DiagnosticConsumer {
 public:
  using DiagnosticConsumer::DiagnosticConsumer;

  void diagnostic(const Diagnostic& d) override {
    const char* id = diag_info(d.code).id;
    std::uint32_t line = d.has_span ? std::max<std::uint32_t>(d.span.start.line, 1) : 1;

    Fnv1a64 h;
    h.add(id);
    h.separator();
    h.add(d.path);
    h.separator();
    h.add(std::to_string(line));
    h.separator();
    h.add(d.message);
    std::string base = h.hex();
    std::size_t seen = occurrences_[base]++;
    if (seen > 0) {
      h.separator();
      h.add(std::to_string(seen));
    }

    std::string description = d.message;
    for (const auto& n : d.notes) description += "; " + note_text(n);

    ojson issue;
    issue["description"] = description;
    issue["check_name"] = id;
    issue["fingerprint"] = h.hex();
    issue["severity"] = gitlab_severity(d.severity);
    issue["location"]["path"] = d.path;
    issue["location"]["lines"]["begin"] = line;
    issues_.push_back(std::move(issue));
  }

  void end(const BuildSummary&) override {
    ojson doc(std::move(issues_));
    if (doc.is_null()) doc = ojson::array();
    issues_.clear();
    // GitLab's code quality format is fixed: U+FFFD only, no "_bytes" members.
    out_ << json_text(std::move(doc), JsonBytes::replaced_only, 2) << '\n';
  }

 private:
  std::vector<ojson> issues_;
  std::map<std::string, std::size_t> occurrences_;
};

}  // namespace

std::unique_ptr<DiagnosticConsumer> make_gitlab(std::ostream& out, const RenderOptions&) {
  return std::make_unique<GitlabConsumer>(out);
}

}  // namespace ws::render_detail
