// changed_fields (definition_fields.h): each side read to the object its
// format holds, through the readers' own first steps (readers.h).
#include "definition_fields.h"

#include <set>

#include "front_matter.h"
#include "libcheck/reader.h"
#include "readers.h"

namespace ws::detail {

namespace {

struct Fields {
  nlohmann::json object = nlohmann::json::object();
  std::string_view body;
};

// The text after the closing '---' line of a front matter; all of it when
// there is no front matter, none when it is not closed.
std::string_view markdown_body(std::string_view bytes, std::uint32_t begin) {
  FrontMatter fm = find_front_matter(bytes, begin);
  if (!fm.present) return bytes.substr(begin);
  if (!fm.closed) return {};
  std::size_t nl = bytes.find('\n', fm.yaml_end);
  return nl == std::string_view::npos ? std::string_view() : bytes.substr(nl + 1);
}

Fields fields_of(const Kind& kind, std::string_view bytes) {
  Fields f;
  Definition scratch;
  if (!check_encoding("", bytes, scratch.diagnostics)) {
    f.body = bytes;
    return f;
  }
  auto begin = static_cast<std::uint32_t>(bom_length(bytes));
  LineIndex lines(bytes);
  JsonDoc doc;
  bool read = false;
  switch (kind.format) {
    case Format::json: read = read_json_object(kind, bytes, begin, lines, doc, scratch); break;
    case Format::markdown:
      read = read_front_matter_object(kind, bytes, begin, lines, doc, scratch);
      f.body = markdown_body(bytes, begin);
      break;
    case Format::csharp:
      f.body = bytes.substr(read_csharp_header(bytes, begin, lines, doc, scratch));
      read = true;
      break;
    case Format::opaque: break;
  }
  if (read && doc.value.is_object()) f.object = std::move(doc.value);
  return f;
}

}  // namespace

nlohmann::json definition_object(const Kind& kind, std::string_view bytes) {
  if (kind.format == Format::opaque || kind.never_read) return nlohmann::json::object();
  return fields_of(kind, bytes).object;
}

std::vector<std::string> changed_fields(const Kind& kind, std::string_view before, std::string_view after) {
  if (kind.format == Format::opaque || kind.never_read) return {};
  Fields a = fields_of(kind, before), b = fields_of(kind, after);
  std::set<std::string> keys;
  for (const auto& [key, value] : a.object.items())
    if (!b.object.contains(key) || b.object[key] != value) keys.insert(key);
  for (const auto& [key, value] : b.object.items())
    if (!a.object.contains(key)) keys.insert(key);
  std::vector<std::string> out(keys.begin(), keys.end());
  bool has_body = kind.format == Format::markdown || kind.format == Format::csharp;
  if (has_body && a.body != b.body && !keys.count("body")) out.push_back("body");
  return out;
}

}  // namespace ws::detail
