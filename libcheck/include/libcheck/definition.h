// What a reader yields for one definition file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/diagnostic.h"
#include "libcheck/kinds.h"
#include "libcheck/source.h"

namespace ws {

enum class RefOrigin { code, json };

// One reference to a definition (and possibly one of its members).
// Code: `N.Ticket.Status` -> target_kind "node-type", name "Ticket", member "Status".
// JSON: agent "/tools/0" = "Lookup" -> target_kind "ai-tool", name "Lookup".
struct Reference {
  std::string target_kind;
  std::string name;
  std::string member;  // empty: the definition itself
  Span span;           // the whole chain (code) or the string value (JSON)
  RefOrigin origin = RefOrigin::code;
  std::string text;    // as written: "N.Ticket.Status", "Lookup"
  // Where the name and the member are written, as the reader found them:
  // the identifier tokens of a code chain (`@` included), the string of a
  // JSON value. Empty (0, 0) when not written here: a JSON member
  // reference names its owner elsewhere. Set by the readers only; the
  // definition cache and the base's index keep no such spans, so a caller
  // that edits (ws rename) reads the file again.
  Span name_at;
  Span member_at;
};

struct Member {
  std::string name;
  Span span;
};

struct Definition {
  std::string path;
  std::string kind;        // kind name
  std::string name;        // empty when missing or invalid
  Span name_span;
  bool has_name = false;
  std::vector<Member> members;
  std::vector<Reference> refs;
  std::vector<Diagnostic> diagnostics;  // per-file: syntax, encoding, schema, name, scope
  // Code the grammar could not parse whole: its references were read outside
  // the parts that do not parse, so some may be missing (ws-build(1), --stats).
  bool partly_read = false;
};

// Syntax classes a match can lie in, for `ws-grep --in`.
enum class SyntaxClass : std::uint8_t { code, comment, string, key, value };
const char* syntax_class_name(SyntaxClass c);

struct ClassRange {
  std::uint32_t start_byte;
  std::uint32_t end_byte;
  SyntaxClass cls;
};

}  // namespace ws
