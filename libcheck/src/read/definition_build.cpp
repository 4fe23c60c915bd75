#include "definition_build.h"

#include <fmt/format.h>

#include "cron_check.h"
#include "schema_check.h"
#include "ts_util.h"

namespace ws::detail {

namespace {

// The name's key when the name is a top-level field, so that the schema's
// "missing required field" can give way to WS007.
std::string top_level_key(std::string_view pointer) {
  auto tokens = pointer_tokens(pointer);
  return tokens.size() == 1 ? tokens.front() : std::string();
}

void take_members(const Kind& kind, const JsonDoc& doc, Definition& def) {
  if (kind.member_pointer.empty()) return;
  for (const std::string& pointer : expand_pointer(doc.value, kind.member_pointer)) {
    const nlohmann::json* v = value_at(doc.value, pointer);
    const Located* at = doc.find(pointer);
    if (!v || !v->is_string() || v->get_ref<const std::string&>().empty() || !at) continue;
    def.members.push_back(Member{v->get<std::string>(), at->content});
  }
  if (!def.has_name) return;
  for (const std::string& name : kind.implicit_members) def.members.push_back(Member{name, def.name_span});
}

void take_references(const Kind& kind, const JsonDoc& doc, Definition& def) {
  for (const RefSpec& spec : kind.refs) {
    std::string owner;
    if (!spec.member_of.empty()) {
      const nlohmann::json* o = value_at(doc.value, spec.member_of);
      if (!o || !o->is_string() || o->get_ref<const std::string&>().empty()) continue;
      owner = o->get<std::string>();
    }
    for (const std::string& pointer : expand_pointer(doc.value, spec.pointer)) {
      const nlohmann::json* v = value_at(doc.value, pointer);
      const Located* at = doc.find(pointer);
      // A value of the wrong type is the schema's to report.
      if (!v || !v->is_string() || v->get_ref<const std::string&>().empty() || !at) continue;
      Reference ref;
      ref.target_kind = spec.target_kind;
      ref.origin = RefOrigin::json;
      ref.span = at->content;
      ref.text = v->get<std::string>();
      if (spec.member_of.empty()) {
        ref.name = ref.text;
        ref.name_at = at->content;
      } else {
        ref.name = owner;
        ref.member = ref.text;
        ref.member_at = at->content;
      }
      def.refs.push_back(std::move(ref));
    }
  }
}

}  // namespace

void take_name(const Kind& kind, std::string_view name, const Span& span, bool file_level, Definition& def) {
  auto report = [&](DiagCode code, std::string message) {
    def.diagnostics.push_back(file_level ? make_file_diag(code, def.path, std::move(message))
                                         : make_diag(code, def.path, span, std::move(message)));
  };
  if (name.empty()) {
    report(DiagCode::missing_name, "missing name: the name is empty");
    return;
  }
  if (!kind.symbol_root.empty() && !is_valid_symbol_name(name)) {
    std::string shown = excerpt(name, 80);
    if (is_csharp_keyword(name))
      report(DiagCode::invalid_name, fmt::format("invalid name '{}': it is a C# keyword, so code could not "
                                                 "write {}.{}",
                                                 shown, kind.symbol_root, shown));
    else if (is_ascii_identifier(name))
      // Then the length is the only fault, and in ASCII bytes are characters.
      // 32 characters of it keep the line short; the span marks all of it.
      report(DiagCode::invalid_name, fmt::format("invalid name '{}': {} characters, a name has at most {}",
                                                 excerpt(name, 32), name.size(), kMaxNameLength));
    else
      report(DiagCode::invalid_name,
             fmt::format("invalid name '{}': not a C# identifier (ASCII letters, digits and '_', not starting "
                         "with a digit), so code could not write {}.{}",
                         shown, kind.symbol_root, shown));
    return;
  }
  def.name = std::string(name);
  def.name_span = span;
  def.has_name = true;
}

void finish_definition(const Kind& kind, const JsonDoc& doc, const Span& missing_at,
                       std::string_view missing_message, Definition& def) {
  std::size_t before = def.diagnostics.size();
  check_schema(kind, doc, def.path, top_level_key(kind.name_pointer), def.diagnostics);
  check_cron_fields(kind, doc, def);

  const nlohmann::json* name = value_at(doc.value, kind.name_pointer);
  const Located* at = doc.find(kind.name_pointer);
  if (kind.name_from_filename) {
    std::string_view path = def.path;
    std::size_t slash = path.rfind('/');
    take_name(kind, path.substr(slash == std::string_view::npos ? 0 : slash + 1), Span{}, true, def);
  } else if (!name) {
    def.diagnostics.push_back(make_diag(DiagCode::missing_name, def.path, missing_at, std::string(missing_message)));
  } else if (name->is_null()) {
    // `name:` with no value (front matter): one WS007, not also a type error.
    std::erase_if(def.diagnostics, [&](const Diagnostic& d) {
      return d.code == DiagCode::schema_violation && at && d.span.start_byte == at->value.start_byte;
    });
    def.diagnostics.push_back(make_diag(DiagCode::missing_name, def.path, at && at->has_key ? at->key : missing_at,
                                        "missing name: the name has no value"));
  } else if (!name->is_string()) {
    // The schema says what type the name must be; say it here only if it did not.
    bool said = false;
    for (std::size_t i = before; i < def.diagnostics.size(); ++i)
      said = said || (at && def.diagnostics[i].span.start_byte == at->value.start_byte);
    if (!said && at)
      def.diagnostics.push_back(make_diag(DiagCode::invalid_name, def.path, at->value, "invalid name: the name must be a string"));
  } else if (at) {
    take_name(kind, name->get_ref<const std::string&>(), name->get_ref<const std::string&>().empty() ? at->value : at->content,
              false, def);
  }
  take_members(kind, doc, def);
  take_references(kind, doc, def);
}

}  // namespace ws::detail
