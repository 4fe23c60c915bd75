// The impact of a change on memory (ws-build(1), IMPACT): the count limit
// of the walk, and the fields a change touched, format by format, never
// reading a secret.
#include <catch2/catch.hpp>

#include <mutex>
#include <set>

#include "definition_fields.h"
#include "libcheck/compile.h"
#include "support/memory_content.h"

using namespace ws;
using wstest::MemoryFile;

namespace {

constexpr auto A = ChangeStatus::added;
constexpr auto M = ChangeStatus::modified;
constexpr auto U = ChangeStatus::unchanged;

const KindPack& pack() { return wstest::default_kind_pack(); }

const Kind& kind(const std::string& name) {
  const Kind* k = pack().by_name(name);
  REQUIRE(k);
  return *k;
}

std::string agent(const std::string& name, const std::string& handoff = "") {
  return "{\"name\": \"" + name + "\", \"handoffs\": [" + (handoff.empty() ? "" : "\"" + handoff + "\"") + "]}\n";
}

ChangeImpact impact_of(const std::vector<MemoryFile>& files, const ImpactLimits& limits = {},
                       std::shared_ptr<const ContentSource>* content = nullptr) {
  View view = wstest::memory_view(files);
  if (content) view = View(view.entries(), *content, "");
  ChangeImpact impact;
  BuildOptions options;
  options.impact = &impact;
  options.impact_limits = limits;
  auto r = compile_view(view, pack(), WorkspaceConfig{}, options, nullptr);
  REQUIRE(r.ok());
  return impact;
}

// Content that records every path and blob it was asked for.
class Recording final : public ContentSource {
 public:
  explicit Recording(std::shared_ptr<const ContentSource> inner) : inner_(std::move(inner)) {}
  Result<std::string> read(const ViewEntry& e) const override {
    note(e.path);
    return inner_->read(e);
  }
  Result<std::string> read_blob(const std::string& id) const override {
    note(id);
    return inner_->read_blob(id);
  }
  std::optional<std::uint64_t> size_of(const ViewEntry& e) const override { return inner_->size_of(e); }
  std::set<std::string> asked() const {
    std::lock_guard lock(mu_);
    return asked_;
  }

 private:
  void note(const std::string& what) const {
    std::lock_guard lock(mu_);
    asked_.insert(what);
  }
  std::shared_ptr<const ContentSource> inner_;
  mutable std::mutex mu_;
  mutable std::set<std::string> asked_;
};

}  // namespace

TEST_CASE("impact: the count limit lists exactly that many and says the list was cut", "[impact]") {
  std::vector<MemoryFile> files{{"agents/c.json", M, agent("C") + " ", agent("C")}};
  for (char n = 'a'; n <= 'e'; ++n) files.push_back({std::string("agents/r") + n + ".json", U, agent(std::string("R") + n, "C")});
  auto all = impact_of(files, ImpactLimits{5, 32});
  CHECK(all.impacted.size() == 5);
  CHECK(all.truncated == ImpactTruncation::none);
  auto cut = impact_of(files, ImpactLimits{3, 32});
  REQUIRE(cut.impacted.size() == 3);
  CHECK(cut.truncated == ImpactTruncation::definitions);
  CHECK(cut.impacted[0].path == "agents/ra.json");
  CHECK(cut.impacted[2].path == "agents/rc.json");
  // Reformatting a JSON file changes no field.
  REQUIRE(cut.changes.size() == 1);
  CHECK(cut.changes[0].fields.empty());
}

TEST_CASE("impact: the fields a change touched: JSON members, header lines, front matter, bodies", "[impact]") {
  using detail::changed_fields;
  CHECK(changed_fields(kind("agent"), "{\"name\": \"A\", \"model\": \"s\", \"tools\": [\"X\"]}",
                       "{\n  \"tools\": [\"X\"],\n  \"name\": \"A\",\n  \"description\": \"d\"\n}") ==
        std::vector<std::string>{"description", "model"});
  const std::string ep = "// name: Go\n// route: /x\n// method: GET\nreturn 1;\n";
  CHECK(changed_fields(kind("endpoint"), ep, "// name: Go\n// route: /y\n// method: GET\nreturn 1;\n") ==
        std::vector<std::string>{"route"});
  CHECK(changed_fields(kind("endpoint"), ep, "// name: Go\n// route: /x\n// method: GET\nreturn 2;\n") ==
        std::vector<std::string>{"body"});
  CHECK(changed_fields(kind("endpoint"), ep, ep).empty());
  const std::string prompt = "---\nname: P\nincludes: [Q]\n---\nSay hello.\n";
  CHECK(changed_fields(kind("prompt"), prompt, "---\nname: P\nincludes:\n  - Q\n---\nSay hello.\n").empty());
  CHECK(changed_fields(kind("prompt"), prompt, "---\nname: P2\n---\nSay goodbye.\n") ==
        std::vector<std::string>{"includes", "name", "body"});
  // A side that does not read as an object has no fields: all of the other's differ.
  CHECK(changed_fields(kind("agent"), "{\"name\": \"A\"", "{\"name\": \"A\"}") == std::vector<std::string>{"name"});
  CHECK(changed_fields(kind("agent"), "{\"name\": \"A\"}", std::string("\xff{}", 3)) ==
        std::vector<std::string>{"name"});
  CHECK(changed_fields(kind("secret"), "a", "b").empty());
}

TEST_CASE("impact: the fields of a changed secret are never read", "[impact]") {
  View plain = wstest::memory_view({{".secrets/Key", M, "new secret", "old secret"},
                                    {"agents/a.json", M, agent("A", "B"), agent("A")},
                                    {"agents/b.json", A, agent("B")}});
  auto recording = std::make_shared<Recording>(plain.content_ptr());
  std::shared_ptr<const ContentSource> content = recording;
  auto impact = impact_of({{".secrets/Key", M, "new secret", "old secret"},
                           {"agents/a.json", M, agent("A", "B"), agent("A")},
                           {"agents/b.json", A, agent("B")}},
                          {}, &content);
  REQUIRE(impact.changes.size() == 3);
  CHECK(impact.changes[0].path == ".secrets/Key");
  CHECK(impact.changes[0].fields.empty());
  CHECK(impact.changes[1].fields == std::vector<std::string>{"handoffs"});
  CHECK(impact.impacted.size() == 1);
  CHECK(impact.impacted[0].changed);
  for (const auto& asked : recording->asked()) CHECK(asked != ".secrets/Key");
  CHECK(recording->asked().count(Repository::hash_blob("old secret")) == 0);
  CHECK(recording->asked().count(Repository::hash_blob("new secret")) == 0);
}

TEST_CASE("impact: paths are kept as a tree, each naming the one before it", "[impact]") {
  // C changes; B refers to C; A and D refer to B; E (added) refers to D.
  auto impact = impact_of({{"agents/a.json", U, agent("A", "B")},
                           {"agents/b.json", U, agent("B", "C")},
                           {"agents/c.json", M, agent("C") + " ", agent("C")},
                           {"agents/d.json", U, agent("D", "B")},
                           {"agents/e.json", A, agent("E", "D")}});
  REQUIRE(impact.reached.size() == 2);
  CHECK(impact.reached[0].name == "C");
  CHECK(impact.reached[1].name == "E");
  REQUIRE(impact.impacted.size() == 4);
  std::vector<std::string> listed;
  for (const auto& d : impact.impacted) {
    std::string line = std::string(d.name) + " depth " + std::to_string(d.depth) + " reaches " + impact.reached[d.reaches].name + ":";
    for (const ImpactedDefinition* step : impact.through(d)) line += " " + std::string(step->name);
    if (d.via != ImpactedDefinition::kNone) {
      CHECK(d.via < static_cast<std::size_t>(&d - impact.impacted.data()));
      CHECK(impact.impacted[d.via].depth + 1 == d.depth);
    }
    listed.push_back(line + (d.changed ? " (changed)" : ""));
  }
  CHECK(listed == std::vector<std::string>{"B depth 1 reaches C:", "A depth 2 reaches C: B", "D depth 2 reaches C: B",
                                           "E depth 3 reaches C: B D (changed)"});
}
