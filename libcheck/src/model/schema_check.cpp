#include "schema_check.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <memory>

#include <exception>
#include <set>
#include <utility>

#include "schema_compile.h"
#include "ts_util.h"
#include "valijson_include.h"

namespace ws::detail {

namespace {

// Object keys longer than this are refused before validation: valijson
// matches keys against 'patternProperties' with std::regex, which recurses
// per character. No real field name comes near it.
constexpr std::size_t kMaxKeyBytes = 1024;

enum class What { required, unknown, type, enumeration, pattern, min_length, max_length, constant,
                  format, cascade, other };

struct Problem {
  What what;
  std::string pointer;      // the value the error is about
  std::string field;        // required / unknown: the field named
  std::string description;  // valijson's words, for the cases we do not rephrase
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The text between the first quote after `prefix` and the last quote.
std::string quoted(std::string_view description, std::string_view prefix) {
  std::string_view rest = description.substr(prefix.size());
  std::size_t end = rest.rfind('\'');
  return std::string(rest.substr(0, end == std::string_view::npos ? rest.size() : end));
}

Problem classify(const valijson::ValidationResults::Error& error) {
  Problem p{What::other, "", "", error.description};
  // valijson's context: "<root>", then "[key]" or "[index]" per step.
  for (std::size_t i = 1; i < error.context.size(); ++i) {
    const std::string& c = error.context[i];
    std::string token = c.size() >= 2 && c.front() == '[' && c.back() == ']' ? c.substr(1, c.size() - 2) : c;
    p.pointer += "/" + pointer_token(token);
  }
  const std::string& d = error.description;
  static constexpr std::string_view kRequired = "Missing required property '";
  static constexpr std::string_view kUnknown =
      "Object contains a property that could not be validated using 'properties' or "
      "'additionalProperties' constraints: '";
  if (starts_with(d, kRequired)) {
    p.what = What::required;
    p.field = quoted(d, kRequired);
  } else if (starts_with(d, kUnknown)) {
    p.what = What::unknown;
    p.field = quoted(d, kUnknown);
  } else if (starts_with(d, "Value type not permitted")) {
    p.what = What::type;
  } else if (starts_with(d, "Failed to match against any enum")) {
    p.what = What::enumeration;
  } else if (starts_with(d, "Failed to match regex")) {
    p.what = What::pattern;
  } else if (starts_with(d, "String should be no fewer than")) {
    p.what = What::min_length;
  } else if (starts_with(d, "String should be no more than")) {
    p.what = What::max_length;
  } else if (starts_with(d, "Failed to match expected value set by 'const'")) {
    p.what = What::constant;
  } else if (starts_with(d, "String should be a valid ")) {
    p.what = What::format;
  } else if (starts_with(d, "Failed to validate")) {
    // "Failed to validate item #1 in array", "... against schema associated
    // with property name": parents of an error reported at the child.
    p.what = What::cascade;
  }
  return p;
}

const nlohmann::json* resolve_ref(const nlohmann::json& root, const nlohmann::json* s) {
  for (int hops = 0; s && s->is_object() && s->contains("$ref") && hops < 8; ++hops) {
    const nlohmann::json& ref = (*s)["$ref"];
    if (!ref.is_string() || !starts_with(ref.get_ref<const std::string&>(), "#")) return nullptr;
    s = value_at(root, std::string_view(ref.get_ref<const std::string&>()).substr(1));
  }
  return s && s->is_object() ? s : nullptr;
}

// The subschema that applies to the value at `pointer`, following only
// properties / additionalProperties / items; null where combinators decide.
const nlohmann::json* fragment(const nlohmann::json& schema, const nlohmann::json& doc, std::string_view pointer) {
  const nlohmann::json* s = resolve_ref(schema, &schema);
  const nlohmann::json* v = &doc;
  for (const std::string& token : pointer_tokens(pointer)) {
    if (!s || !v) return nullptr;
    const nlohmann::json* next = nullptr;
    if (v->is_array()) {
      auto items = s->find("items");
      if (items != s->end() && items->is_object()) {
        next = &*items;
      } else if (items != s->end() && items->is_array()) {
        std::size_t i = 0;
        bool digits = !token.empty() && token.size() < 10;
        for (char c : token) {
          digits = digits && c >= '0' && c <= '9';
          if (digits) i = i * 10 + static_cast<std::size_t>(c - '0');
        }
        if (digits && i < items->size()) next = &(*items)[i];
      }
    } else if (v->is_object()) {
      auto props = s->find("properties");
      if (props != s->end() && props->is_object() && props->contains(token)) {
        next = &(*props)[token];
      } else if (auto extra = s->find("additionalProperties"); extra != s->end() && extra->is_object()) {
        next = &*extra;
      }
    }
    s = resolve_ref(schema, next);
    v = value_at(*v, "/" + pointer_token(token));
  }
  return s;
}

std::string type_phrase(std::string_view type) {
  if (type == "array" || type == "object" || type == "integer") return "an " + std::string(type);
  if (type == "null") return "null";
  return "a " + std::string(type);
}

std::string actual_type(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: return "an integer";
    default: return "a number";
  }
}

std::string list_values(const nlohmann::json& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    out += v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return out;
}

std::string lower_sentence(std::string s) {
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

class Reporter {
 public:
  Reporter(const Kind& kind, const JsonDoc& doc, std::string_view path, std::vector<Diagnostic>& out)
      : kind_(kind), doc_(doc), path_(path), out_(out) {}

  void report(const Problem& p) {
    const nlohmann::json* value = value_at(doc_.value, p.pointer);
    const nlohmann::json* schema = fragment(kind_.schema, doc_.value, p.pointer);
    std::string field = display_path(doc_.value, p.pointer);
    std::string subject = field.empty() ? "the " + kind_.name + " definition" : "'" + field + "'";
    const Located* at = doc_.find(p.pointer);
    Span span = at ? at->value : Span{};
    std::string message;
    switch (p.what) {
      case What::required:
        message = required_message(p, field, span);
        break;
      case What::unknown:
        report_unknown(p, value, schema, field, span);
        return;
      case What::type:
        message = type_message(schema, subject, value);
        break;
      case What::enumeration:
        message = schema && schema->contains("enum") && (*schema)["enum"].is_array()
                      ? subject + " must be one of " + list_values((*schema)["enum"])
                      : subject + " is not one of the allowed values";
        break;
      case What::pattern:
        message = schema && schema->contains("pattern") && (*schema)["pattern"].is_string()
                      ? fmt::format("{} must match the pattern '{}'", subject, (*schema)["pattern"].get<std::string>())
                      : subject + " does not match its pattern";
        break;
      case What::min_length: {
        const nlohmann::json* min = schema && schema->contains("minLength") ? &(*schema)["minLength"] : nullptr;
        message = !min || !min->is_number_integer() || min->get<std::int64_t>() <= 1 ? subject + " must not be empty"
                           : fmt::format("{} must be at least {} characters long", subject, min->dump());
        break;
      }
      case What::max_length:
        message = schema && schema->contains("maxLength")
                      ? fmt::format("{} must be at most {} characters long", subject, (*schema)["maxLength"].dump())
                      : subject + " is too long";
        break;
      case What::constant:
        message = schema && schema->contains("const")
                      ? subject + " must be " + list_values(nlohmann::json::array({(*schema)["const"]}))
                      : subject + " does not have the required value";
        break;
      case What::format:
        message = subject + " must be a valid " + p.description.substr(std::string_view("String should be a valid ").size());
        break;
      case What::cascade:
        message = subject + " does not match the " + kind_.name + " schema: " + lower_sentence(p.description);
        break;
      case What::other:
        message = subject + ": " + lower_sentence(p.description);
        break;
    }
    emit(span, std::move(message));
  }

 private:
  // Points at the opening brace only; a header with no object (an empty C#
  // file) has nothing to point at and keeps its empty span.
  static std::string required_message(const Problem& p, const std::string& field, Span& span) {
    if (span.end_byte > span.start_byte) {
      span.end_byte = span.start_byte + 1;
      span.end = Position{span.start.line, span.start.column + 1};
    }
    std::string message = fmt::format("missing required field '{}'", p.field);
    if (!field.empty()) message += " in " + field;
    return message;
  }

  // valijson names only the first unknown field of an object; report every one.
  void report_unknown(const Problem& p, const nlohmann::json* value, const nlohmann::json* schema,
                      const std::string& field, const Span& span) {
    std::string allowed;
    if (schema && schema->contains("properties") && (*schema)["properties"].is_object()) {
      for (const auto& [name, sub] : (*schema)["properties"].items()) allowed += (allowed.empty() ? "" : ", ") + name;
      allowed = allowed.empty() ? "; no fields are allowed" : "; allowed: " + allowed;
    }
    for (const std::string& name : unknown_fields(p, value, schema)) {
      Span key_span = span;
      if (const Located* key = doc_.find(p.pointer + "/" + pointer_token(name)); key && key->has_key)
        key_span = key->key;
      emit(key_span, fmt::format("unknown field '{}' in {}{}", excerpt(name, 80), field.empty() ? kind_.name : field,
                                 allowed));
    }
  }

  static std::string type_message(const nlohmann::json* schema, const std::string& subject,
                                  const nlohmann::json* value) {
    std::string expected;
    if (schema && schema->contains("type")) {
      const nlohmann::json& t = (*schema)["type"];
      if (t.is_string()) expected = type_phrase(t.get<std::string>());
      if (t.is_array())
        for (const auto& one : t)
          if (one.is_string()) expected += (expected.empty() ? "" : " or ") + type_phrase(one.get<std::string>());
    }
    std::string message = expected.empty() ? subject + " has the wrong type" : subject + " must be " + expected;
    if (value) message += ", not " + actual_type(*value);
    return message;
  }

  void emit(const Span& span, std::string message) {
    if (seen_.insert({span.start_byte, message}).second)
      out_.push_back(make_diag(DiagCode::schema_violation, std::string(path_), span, std::move(message)));
  }

  // The keys of the object at p.pointer that neither 'properties' nor
  // 'patternProperties' of its subschema admit, in the order they are written.
  std::vector<std::string> unknown_fields(const Problem& p, const nlohmann::json* object, const nlohmann::json* schema) {
    if (!object || !object->is_object() || !schema) return {p.field};
    std::vector<std::unique_ptr<re2::RE2>> patterns;
    if (auto pp = schema->find("patternProperties"); pp != schema->end() && pp->is_object()) {
      re2::RE2::Options options;
      options.set_log_errors(false);
      for (const auto& [pattern, sub] : pp->items()) patterns.push_back(std::make_unique<re2::RE2>(pattern, options));
    }
    const nlohmann::json* props = schema->contains("properties") ? &(*schema)["properties"] : nullptr;
    std::vector<std::pair<std::uint32_t, std::string>> found;
    for (const auto& [name, v] : object->items()) {
      if (props && props->is_object() && props->contains(name)) continue;
      bool matched = false;
      for (const auto& re : patterns) matched = matched || (re->ok() && re2::RE2::PartialMatch(name, *re));
      if (matched) continue;
      const Located* key = doc_.find(p.pointer + "/" + pointer_token(name));
      found.push_back({key ? key->key.start_byte : 0, name});
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (auto& [at, name] : found) out.push_back(std::move(name));
    if (out.empty()) out.push_back(p.field);
    return out;
  }

  const Kind& kind_;
  const JsonDoc& doc_;
  std::string_view path_;
  std::vector<Diagnostic>& out_;
  std::set<std::pair<std::uint32_t, std::string>> seen_;
};

// Refuses absurdly long keys before valijson sees them; see kMaxKeyBytes.
bool keys_fit(const JsonDoc& doc, std::string_view path, std::vector<Diagnostic>& out) {
  bool ok = true;
  for (const auto& [pointer, loc] : doc.at) {
    if (!loc.has_key) continue;
    std::size_t slash = pointer.rfind('/');
    // Escaping only lengthens a key: a short token needs no unescaping to pass.
    if (pointer.size() - slash - 1 <= kMaxKeyBytes) continue;
    std::size_t bytes = pointer_tokens(pointer.substr(slash)).front().size();
    if (bytes <= kMaxKeyBytes) continue;
    out.push_back(make_diag(DiagCode::schema_violation, std::string(path), loc.key,
                            fmt::format("field name is too long ({} bytes; at most {})", bytes, kMaxKeyBytes)));
    ok = false;
  }
  return ok;
}

}  // namespace

std::optional<std::string> schema_problem(const nlohmann::json& schema) {
  CompiledSchema compiled = compiled_schema(schema);
  if (auto* problem = std::get_if<std::string>(&compiled)) return *problem;
  return std::nullopt;
}

bool check_schema(const Kind& kind, const JsonDoc& doc, std::string_view path, std::string_view name_key,
                  std::vector<Diagnostic>& out) {
  if (kind.schema.is_null()) return true;
  if (!keys_fit(doc, path, out)) return false;
  CompiledSchema compiled = compiled_schema(kind.schema);
  auto* schema = std::get_if<std::shared_ptr<const valijson::Schema>>(&compiled);
  if (!schema) return true;  // refused when the kind pack was loaded

  valijson::ValidationResults results;
  try {
    valijson::Validator validator;
    valijson::adapters::NlohmannJsonAdapter target(doc.value);
    if (validator.validate(**schema, target, &results)) return true;
  } catch (const std::exception& e) {
    const Located* root = doc.find("");
    out.push_back(make_diag(DiagCode::schema_violation, std::string(path), root ? root->value : Span{},
                            "the " + kind.name + " schema could not be applied: " + lower_sentence(e.what())));
    return false;
  }

  std::vector<Problem> problems;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) problems.push_back(classify(error));
  bool has_leaf = false;
  for (const Problem& p : problems) has_leaf = has_leaf || p.what != What::cascade;

  Reporter reporter(kind, doc, path, out);
  for (const Problem& p : problems) {
    if (has_leaf && p.what == What::cascade) continue;
    if (p.what == What::required && p.pointer.empty() && p.field == name_key) continue;
    reporter.report(p);
  }
  return false;
}

}  // namespace ws::detail
