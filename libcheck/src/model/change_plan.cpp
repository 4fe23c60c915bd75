// plan_records (change_plan.h): the one place the plan becomes JSON.
#include "libcheck/change_plan.h"

#include "libcheck/json_output.h"

namespace ws {

namespace {

using ojson = nlohmann::ordered_json;

ojson name_or_null(const std::string& name) { return name.empty() ? ojson() : ojson(name); }

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

ojson impact_record(const ChangeImpact& impact, const ImpactedDefinition& d) {
  ojson j = json_record("impact");
  j.update({{"kind", d.kind}, {"name", name_or_null(d.name)}, {"path", d.path}, {"changed", d.changed},
            {"depth", d.depth}});
  const ReachedName& reaches = impact.reached[d.reaches];
  j["reaches"] = {{"kind", reaches.kind}, {"name", reaches.name}, {"change", definition_change_name(reaches.change)}};
  ojson through = ojson::array();
  for (const ImpactedDefinition* s : impact.through(d))
    through.push_back({{"kind", s->kind}, {"name", s->name}, {"path", s->path}});
  j["through"] = std::move(through);
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
