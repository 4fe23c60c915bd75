#include "schema_compile.h"

#include <re2/re2.h>

#include <array>
#include <cctype>
#include <optional>
#include <string_view>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <vector>

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

// Where a subschema can stand, by how it applies to the value being checked:
// `kSameValue` keywords check the value itself, the others a part of it.
constexpr std::array<const char*, 4> kSameValueOne{"not", "if", "then", "else"};
constexpr std::array<const char*, 3> kSameValueMany{"allOf", "anyOf", "oneOf"};
constexpr std::array<const char*, 5> kPartOne{"additionalItems", "additionalProperties", "contains", "propertyNames",
                                              "items"};
constexpr std::array<const char*, 5> kMaps{"properties", "patternProperties", "definitions", "$defs", "dependencies"};

std::string escape_pointer_token(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// '#/definitions/a%20b' -> '/definitions/a b' (RFC 6901 section 6: a URI fragment
// is percent-encoded); nullopt for a malformed escape.
std::optional<std::string> fragment_pointer(std::string_view fragment) {
  std::string out;
  for (std::size_t i = 0; i < fragment.size(); ++i) {
    if (fragment[i] != '%') {
      out += fragment[i];
      continue;
    }
    if (i + 2 >= fragment.size() || !std::isxdigit(static_cast<unsigned char>(fragment[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(fragment[i + 2])))
      return std::nullopt;
    out += static_cast<char>(std::stoi(std::string(fragment.substr(i + 1, 2)), nullptr, 16));
    i += 2;
  }
  return out;
}

// The subschemas of a schema, by JSON pointer, with the edges along which
// validation checks the same value again: a cycle of those never reaches a
// smaller part of the value, so validating (and valijson's parser resolving a
// '$ref' to a '$ref') would recurse forever. Cycles through 'properties',
// 'items' and the like are fine: each step goes one level into the value,
// whose nesting the readers cap.
class SchemaGraph {
 public:
  // Throws std::runtime_error naming the pointer of the first problem.
  explicit SchemaGraph(const nlohmann::json& root) {
    collect(root);
    link();
    find_cycle();
  }

 private:
  struct Node {
    const nlohmann::json* schema;
    std::string pointer;
    std::vector<std::size_t> same_value;  // subschemas checked against the same value
  };
  std::vector<Node> nodes_;
  std::unordered_map<std::string, std::size_t> by_pointer_;

  // Every object where a subschema can stand, breadth first (no recursion:
  // the nesting was capped by rewrite()).
  void collect(const nlohmann::json& root) {
    nodes_.push_back({&root, "", {}});
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const nlohmann::json& s = *nodes_[i].schema;
      const std::string base = nodes_[i].pointer;
      by_pointer_.emplace(base, i);
      if (!s.is_object()) continue;
      auto add = [&](const nlohmann::json& sub, const std::string& pointer) {
        if (sub.is_object()) nodes_.push_back({&sub, pointer, {}});
      };
      for (const char* k : kSameValueOne)
        if (auto it = s.find(k); it != s.end()) add(*it, base + "/" + k);
      for (const char* k : kPartOne)
        if (auto it = s.find(k); it != s.end()) add(*it, base + "/" + k);
      for (const char* k : kSameValueMany)
        if (auto it = s.find(k); it != s.end() && it->is_array())
          for (std::size_t j = 0; j < it->size(); ++j) add((*it)[j], base + "/" + k + "/" + std::to_string(j));
      if (auto it = s.find("items"); it != s.end() && it->is_array())
        for (std::size_t j = 0; j < it->size(); ++j) add((*it)[j], base + "/items/" + std::to_string(j));
      for (const char* k : kMaps)
        if (auto it = s.find(k); it != s.end() && it->is_object())
          for (auto& [name, sub] : it->items()) add(sub, base + "/" + k + "/" + escape_pointer_token(name));
    }
  }

  std::size_t resolve(const nlohmann::json& ref, const std::string& at) const {
    std::string where = "'$ref' at '#" + at + "'";
    if (!ref.is_string()) throw std::runtime_error(where + " must be a string");
    const std::string& text = ref.get_ref<const std::string&>();
    if (text.empty() || text[0] != '#')
      throw std::runtime_error(where + " names '" + text + "': only references inside the schema ('#/...') are allowed");
    auto pointer = fragment_pointer(std::string_view(text).substr(1));
    auto it = pointer ? by_pointer_.find(*pointer) : by_pointer_.end();
    if (it == by_pointer_.end())
      throw std::runtime_error(where + " names '" + text + "', which is not a subschema of this schema");
    return it->second;
  }

  void link() {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const nlohmann::json& s = *nodes_[i].schema;
      if (!s.is_object()) continue;
      const std::string& base = nodes_[i].pointer;
      for (const char* id : {"$id", "id"})
        if (!base.empty() && s.contains(id) && s[id].is_string())
          throw std::runtime_error(std::string("'") + id + "' at '#" + base +
                                   "': a subschema may not change where references resolve");
      if (auto it = s.find("$ref"); it != s.end()) {
        // A '$ref' stands for its target; valijson reads nothing beside it.
        nodes_[i].same_value.push_back(resolve(*it, base));
        continue;
      }
      auto child = [&](const std::string& pointer) {
        if (auto c = by_pointer_.find(pointer); c != by_pointer_.end()) nodes_[i].same_value.push_back(c->second);
      };
      for (const char* k : {"not", "if", "then", "else"}) child(base + "/" + k);
      for (const char* k : kSameValueMany)
        if (auto it = s.find(k); it != s.end() && it->is_array())
          for (std::size_t j = 0; j < it->size(); ++j) child(base + "/" + k + "/" + std::to_string(j));
      if (auto it = s.find("dependencies"); it != s.end() && it->is_object())
        for (auto& [name, sub] : it->items()) child(base + "/dependencies/" + escape_pointer_token(name));
    }
  }

  // Depth-first with an explicit stack: a chain of references may be as long
  // as the schema has subschemas.
  void find_cycle() const {
    enum Colour : unsigned char { unseen, open, done };
    std::vector<Colour> colour(nodes_.size(), unseen);
    std::vector<std::pair<std::size_t, std::size_t>> stack;  // node, next edge
    for (std::size_t start = 0; start < nodes_.size(); ++start) {
      if (colour[start] != unseen) continue;
      stack.push_back({start, 0});
      colour[start] = open;
      while (!stack.empty()) {
        auto& [node, edge] = stack.back();
        if (edge == nodes_[node].same_value.size()) {
          colour[node] = done;
          stack.pop_back();
          continue;
        }
        std::size_t next = nodes_[node].same_value[edge++];
        if (colour[next] == open) throw std::runtime_error(cycle_message(stack, next));
        if (colour[next] == unseen) {
          colour[next] = open;
          stack.push_back({next, 0});
        }
      }
    }
  }

  std::string cycle_message(const std::vector<std::pair<std::size_t, std::size_t>>& stack, std::size_t again) const {
    std::string path;
    bool in_cycle = false;
    for (const auto& [node, edge] : stack) {
      in_cycle = in_cycle || node == again;
      if (in_cycle) path += "'#" + nodes_[node].pointer + "' -> ";
    }
    path += "'#" + nodes_[again].pointer + "'";
    return "schema refers to itself without checking any part of the value: " + path;
  }
};

CompiledSchema compile(const nlohmann::json& schema) {
  if (!schema.is_object()) return std::string("a schema must be an object");
  try {
    nlohmann::json rewritten = schema;
    rewrite(rewritten, 0);
    SchemaGraph check_references(rewritten);
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

namespace {

CompiledSchema shared_compiled_schema(const nlohmann::json& schema) {
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

// The schemas a thread asked for last, by the address of the kind's schema
// value and a copy of it: a build asks once per definition, and writing the
// schema out as the shared cache's key cost more than the validation (about
// 15,000 instructions a file). The copy is compared, not trusted by address
// alone: a kind pack freed and another loaded may put a different schema there.
struct RecentSchema {
  const nlohmann::json* address = nullptr;
  nlohmann::json value;
  CompiledSchema compiled;
};
constexpr std::size_t kRecentSchemas = 16;

}  // namespace

CompiledSchema compiled_schema(const nlohmann::json& schema) {
  thread_local std::vector<RecentSchema> recent;
  thread_local std::size_t next_slot = 0;
  for (const RecentSchema& r : recent)
    if (r.address == &schema && r.value == schema) return r.compiled;
  RecentSchema entry{&schema, schema, shared_compiled_schema(schema)};
  CompiledSchema compiled = entry.compiled;
  if (recent.size() < kRecentSchemas)
    recent.push_back(std::move(entry));
  else
    recent[next_slot++ % kRecentSchemas] = std::move(entry);
  return compiled;
}

}  // namespace ws::detail
