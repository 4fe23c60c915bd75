// plan_records (change_plan.h): the one place the plan becomes JSON.
#include "libcheck/change_plan.h"

#include "libcheck/json_output.h"

namespace ws {

namespace {

using ojson = nlohmann::ordered_json;

ojson name_or_null(std::string_view name) { return name.empty() ? ojson() : ojson(name); }

ojson change_record(const DefinitionChange& c) {
  ojson j = json_record("change");
  j.update({{"change", definition_change_name(c.change)}, {"kind", c.kind}, {"name", name_or_null(c.name)},
            {"path", c.path}});
  if (c.change == DefinitionChangeKind::renamed) j["old_name"] = c.old_name;
  if (!c.old_path.empty()) j["old_path"] = c.old_path;
  if (c.change == DefinitionChangeKind::renamed || c.change == DefinitionChangeKind::modified)
    j["fields"] = c.fields;
  return j;
}

// A definition as {"kind", "name", "path"}.
ojson step_record(const ImpactedDefinition& s) {
  ojson j = ojson::object();
  j["kind"] = s.kind;
  j["name"] = s.name;
  j["path"] = s.path;
  return j;
}

// Members set one at a time: a change to a popular name makes thousands of
// these, and initializer lists copy every value they hold.
ojson impact_record(const ChangeImpact& impact, const ImpactedDefinition& d) {
  ojson j = json_record("impact");
  j["kind"] = d.kind;
  j["name"] = name_or_null(d.name);
  j["path"] = d.path;
  j["changed"] = d.changed;
  j["depth"] = d.depth;
  const ReachedName& reached = impact.reached[d.reaches];
  ojson& reaches = j["reaches"] = ojson::object();
  reaches["kind"] = reached.kind;
  reaches["name"] = reached.name;
  reaches["change"] = definition_change_name(reached.change);
  ojson& through = j["through"] = ojson::array();
  for (const ImpactedDefinition* s : impact.through(d)) through.push_back(step_record(*s));
  return j;
}

}  // namespace

std::vector<ojson> plan_records(const ChangeImpact& impact) {
  std::vector<ojson> out;
  for (const auto& c : impact.changes) out.push_back(change_record(c));
  for (const auto& d : impact.impacted) out.push_back(impact_record(impact, d));
  if (impact.truncated != ImpactTruncation::none) {
    ojson t = json_record("Impact-Truncated");
    bool by_count = impact.truncated == ImpactTruncation::definitions;
    t.update({{"limit", impact_truncation_name(impact.truncated)},
              {"max", by_count ? impact.limits.max_definitions : impact.limits.max_depth}});
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ws
