// A cron expression as crontab(5) on Debian reads its five time fields:
// minute hour day-of-month month day-of-week, each '*', a number or a name,
// a range 'a-b', any of those but a single value with a step '/n', or a
// comma-separated list of them. Names (JAN-DEC, SUN-SAT) in any case, day of
// week 7 is Sunday as 0 is. Debian packages no C++ cron parser, so it is read
// here, by hand, against that grammar; a step of 0 and a range whose end is
// before its start are refused (cron would never fire them, or fire them
// otherwise than written). Macros such as '@daily' are not accepted.
//
// Why in the read layer (docs/architecture.md): the check needs the field's
// value, which only the reader holds, and depends on the bytes and the kind
// alone, so its finding is cached with the definition like a schema
// violation is; the compile's checks see records, not values.
#include "cron_check.h"

#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "ts_util.h"

namespace ws::detail {

namespace {

struct CronField {
  const char* label;
  int low, high;
  std::array<const char*, 12> names;  // names[i] is the value low + i; empty: none
};

constexpr std::array<CronField, 5> kFields{{
    {"minute", 0, 59, {}},
    {"hour", 0, 23, {}},
    {"day of month", 1, 31, {}},
    {"month", 1, 12, {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
    {"day of week", 0, 7, {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
}};

bool is_space(char c) { return c == ' ' || c == '\t'; }

bool same_letters(std::string_view a, const char* name) {
  std::string_view b(name);
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

std::string shown(std::string_view s) { return "'" + excerpt(s, 40) + "'"; }

// One value of a field, a number or a name, as `*out`; else what is wrong.
std::optional<std::string> read_value(const CronField& f, std::string_view v, int* out) {
  if (v.empty()) return fmt::format("{} has an empty value", f.label);
  if (v.find_first_not_of("0123456789") == std::string_view::npos) {
    if (v.size() > 2) return fmt::format("{} {} is out of range {}-{}", f.label, shown(v), f.low, f.high);
    *out = v.size() == 1 ? v[0] - '0' : (v[0] - '0') * 10 + (v[1] - '0');
    if (*out < f.low || *out > f.high) return fmt::format("{} {} is out of range {}-{}", f.label, shown(v), f.low, f.high);
    return std::nullopt;
  }
  for (std::size_t i = 0; i < f.names.size() && f.names[i]; ++i)
    if (same_letters(v, f.names[i])) {
      *out = f.low + static_cast<int>(i);
      return std::nullopt;
    }
  if (f.names[0]) {
    std::size_t last = 0;
    while (last + 1 < f.names.size() && f.names[last + 1]) ++last;
    return fmt::format("{} {} is neither a number {}-{} nor a name {}-{}", f.label, shown(v), f.low, f.high, f.names[0],
                       f.names[last]);
  }
  return fmt::format("{} {} is not a number {}-{}", f.label, shown(v), f.low, f.high);
}

// One element of a comma-separated list: '*', 'a', 'a-b', '*/n' or 'a-b/n'.
std::optional<std::string> check_element(const CronField& f, std::string_view e) {
  std::string_view range = e, step;
  if (std::size_t slash = e.find('/'); slash != std::string_view::npos) {
    range = e.substr(0, slash);
    step = e.substr(slash + 1);
    if (step.empty() || step.find_first_not_of("0123456789") != std::string_view::npos || step.size() > 2)
      return fmt::format("{} {} has a step that is not a number 1-{}", f.label, shown(e), f.high);
    int n = std::stoi(std::string(step));
    if (n == 0 || n > f.high) return fmt::format("{} {} has a step out of range 1-{}", f.label, shown(e), f.high);
  }
  if (range == "*") return std::nullopt;
  std::size_t dash = range.find('-');
  int a = 0, b = 0;
  if (dash == std::string_view::npos) {
    if (!step.empty()) return fmt::format("{} {} has a step after a single value; write a range 'a-b/n' or '*/n'", f.label, shown(e));
    return read_value(f, range, &a);
  }
  if (auto fault = read_value(f, range.substr(0, dash), &a)) return fault;
  if (auto fault = read_value(f, range.substr(dash + 1), &b)) return fault;
  if (b < a) return fmt::format("{} range {} ends before it starts", f.label, shown(range));
  return std::nullopt;
}

std::optional<std::string> check_field(const CronField& f, std::string_view text) {
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string_view e = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (e.empty()) return fmt::format("{} {} has an empty list element", f.label, shown(text));
    if (auto fault = check_element(f, e)) return fault;
    if (comma == std::string_view::npos) return std::nullopt;
    start = comma + 1;
  }
}

}  // namespace

std::optional<std::string> cron_fault(std::string_view text) {
  std::array<std::string_view, 5> fields;
  std::size_t count = 0, i = 0;
  while (true) {
    while (i < text.size() && is_space(text[i])) ++i;
    if (i == text.size()) break;
    std::size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (count < fields.size()) fields[count] = text.substr(start, i - start);
    ++count;
  }
  if (count != fields.size())
    return fmt::format("{} field{}, a cron expression has 5 (minute hour day-of-month month day-of-week)", count,
                       count == 1 ? "" : "s");
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (auto fault = check_field(kFields[f], fields[f])) return fault;
  return std::nullopt;
}

void check_cron_fields(const Kind& kind, const JsonDoc& doc, Definition& def) {
  if (!doc.value.is_object() || !kind.schema.is_object()) return;
  auto props = kind.schema.find("properties");
  if (props == kind.schema.end() || !props->is_object()) return;
  for (const auto& [key, property] : props->items()) {
    if (!property.is_object() || property.value("format", std::string()) != "cron") continue;
    auto value = doc.value.find(key);
    const Located* at = doc.find("/" + pointer_token(key));
    if (value == doc.value.end() || !value->is_string() || !at) continue;
    const std::string& text = value->get_ref<const std::string&>();
    if (auto fault = cron_fault(text))
      def.diagnostics.push_back(
          make_diag(DiagCode::invalid_cron, def.path, at->value, fmt::format("invalid cron {}: {}", shown(text), *fault)));
  }
}

}  // namespace ws::detail
