#include "schema_compile.h"

#include <re2/re2.h>

#include <array>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "valijson_include.h"

namespace ws::detail {

namespace {

constexpr int kMaxSchemaDepth = 64;
constexpr const char* kPatternKeyword = "x-ws-pattern";
constexpr const char* kFormatKeyword = "x-ws-format";

std::shared_ptr<const re2::RE2> compile_regex(const std::string& pattern) {
  re2::RE2::Options options;
  options.set_log_errors(false);  // a library never writes to stderr
  auto re = std::make_shared<const re2::RE2>(pattern, options);
  if (!re->ok()) throw std::runtime_error("invalid pattern '" + pattern + "': " + re->error());
  return re;
}

// 'pattern': the string must contain a match (JSON Schema patterns are not anchored).
class PatternConstraint : public valijson::constraints::PolyConstraint {
 public:
  explicit PatternConstraint(std::shared_ptr<const re2::RE2> re) : re_(std::move(re)) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString()) return true;
    if (re2::RE2::PartialMatch(target.asString(), *re_)) return true;
    if (results) results->pushError(context, "Failed to match regex specified by 'pattern' constraint.");
    return false;
  }

 private:
  Constraint* cloneInto(void* memory) const override { return new (memory) PatternConstraint(*this); }
  size_t sizeOf() const override { return sizeof(PatternConstraint); }

  std::shared_ptr<const re2::RE2> re_;
};

// 'format': the same three formats valijson knows (date, time, date-time),
// checked with RE2; other formats are annotations, as in valijson.
class FormatConstraint : public valijson::constraints::PolyConstraint {
 public:
  explicit FormatConstraint(std::string format) : format_(std::move(format)) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString()) return true;
    const std::string s = target.asString();
    bool ok = true;
    if (format_ == "date") {
      ok = valid_date(s, date());
    } else if (format_ == "time") {
      ok = re2::RE2::FullMatch(s, time());
    } else if (format_ == "date-time") {
      ok = valid_date(s, date_time());
    } else {
      return true;
    }
    if (!ok && results) results->pushError(context, "String should be a valid " + format_);
    return ok;
  }

 private:
  static const re2::RE2& date() {
    static const re2::RE2 re("([0-9]+)-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])");
    return re;
  }
  static const re2::RE2& time() {
    static const re2::RE2 re(
        "([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)(\\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])");
    return re;
  }
  static const re2::RE2& date_time() {
    static const re2::RE2 re(
        "([0-9]+)-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])[Tt]"
        "(?:[01][0-9]|2[0-3]):(?:[0-5][0-9]):(?:[0-5][0-9]|60)(?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])");
    return re;
  }
  static bool valid_date(const std::string& s, const re2::RE2& re) {
    std::string year;
    int month = 0, day = 0;
    if (!re2::RE2::FullMatch(s, re, &year, &month, &day)) return false;
    constexpr std::array<int, 12> kDays{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return day <= kDays[static_cast<std::size_t>(month - 1)];
  }

  Constraint* cloneInto(void* memory) const override { return new (memory) FormatConstraint(*this); }
  size_t sizeOf() const override { return sizeof(FormatConstraint); }

  std::string format_;
};

std::string keyword_string(const valijson::adapters::Adapter& value, const char* keyword) {
  if (!value.isString()) throw std::runtime_error(std::string("'") + keyword + "' must be a string");
  return value.asString();
}

struct PatternBuilder : valijson::ConstraintBuilder {
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    return new PatternConstraint(compile_regex(keyword_string(value, "pattern")));
  }
};

struct FormatBuilder : valijson::ConstraintBuilder {
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    return new FormatConstraint(keyword_string(value, "format"));
  }
};

// Renames 'pattern' and 'format' wherever a subschema can stand, and nowhere
// else (a property may well be called "pattern").
void rewrite(nlohmann::json& schema, int depth) {
  if (depth > kMaxSchemaDepth)
    throw std::runtime_error("schema nests deeper than " + std::to_string(kMaxSchemaDepth) + " levels");
  if (!schema.is_object()) return;
  for (const char* keyword : {"pattern", "format"}) {
    auto it = schema.find(keyword);
    if (it == schema.end()) continue;
    nlohmann::json value = *it;
    schema.erase(it);
    schema[keyword == std::string("pattern") ? kPatternKeyword : kFormatKeyword] = std::move(value);
  }
  for (const char* keyword : {"additionalItems", "additionalProperties", "contains", "propertyNames",
                              "not", "if", "then", "else", "items"}) {
    auto it = schema.find(keyword);
    if (it != schema.end() && it->is_object()) rewrite(*it, depth + 1);
  }
  for (const char* keyword : {"allOf", "anyOf", "oneOf", "items"}) {
    auto it = schema.find(keyword);
    if (it != schema.end() && it->is_array())
      for (auto& sub : *it) rewrite(sub, depth + 1);
  }
  for (const char* keyword : {"properties", "patternProperties", "definitions", "$defs", "dependencies"}) {
    auto it = schema.find(keyword);
    if (it != schema.end() && it->is_object())
      for (auto& [name, sub] : it->items()) rewrite(sub, depth + 1);
  }
}

CompiledSchema compile(const nlohmann::json& schema) {
  if (!schema.is_object()) return std::string("a schema must be an object");
  try {
    nlohmann::json rewritten = schema;
    rewrite(rewritten, 0);
    valijson::SchemaParser parser;
    // The parser owns and deletes its builders.
    parser.addConstraintBuilder(kPatternKeyword, new PatternBuilder);
    parser.addConstraintBuilder(kFormatKeyword, new FormatBuilder);
    auto compiled = std::make_shared<valijson::Schema>();
    valijson::adapters::NlohmannJsonAdapter adapter(rewritten);
    parser.populateSchema(adapter, *compiled);
    return std::shared_ptr<const valijson::Schema>(std::move(compiled));
  } catch (const std::exception& e) {
    std::string message = e.what();
    while (!message.empty() && (message.back() == '.' || message.back() == '\n')) message.pop_back();
    if (!message.empty() && message[0] >= 'A' && message[0] <= 'Z') message[0] = static_cast<char>(message[0] - 'A' + 'a');
    return message.empty() ? std::string("invalid schema") : message;
  }
}

}  // namespace

CompiledSchema compiled_schema(const nlohmann::json& schema) {
  // Few distinct schemas exist in a process (one per kind, plus a
  // workspace's overrides), so the cache is never trimmed.
  static std::mutex mutex;
  static std::unordered_map<std::string, CompiledSchema> cache;
  std::string key = schema.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(std::move(key), compile(schema)).first;
  return it->second;
}

}  // namespace ws::detail
