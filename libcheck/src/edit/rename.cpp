// ws rename (rename.h, ws-rename(1)): the target resolved, the files that
// can mention it found (from the base's index where a build saved one),
// each read from the disk, parsed, edited at the spans its reader gives and
// parsed again; then written all or nothing.
#include "libcheck/rename.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcheck/closest_name.h"
#include "libcheck/path_policy.h"
#include "libcheck/reader.h"
#include "blob_id.h"
#include "libcheck/repository.h"
#include "libcheck/workspace_root.h"
#include "printable_path.h"

namespace ws {

namespace {

std::string shown_quoted(std::string_view s) { return "'" + detail::printable_path(s) + "'"; }

// What is renamed: a definition of `kind` named `name`, or its field `member`.
struct Target {
  const Kind* kind = nullptr;
  std::string name;
  std::string member;    // empty: the definition itself
  std::string new_name;  // the definition's or the field's
  const std::string& old_word() const { return member.empty() ? name : member; }
};

Error usage(std::string message, std::string subject = {}) {
  return make_error(Errc::usage, std::move(message), std::move(subject), Rule::symbol);
}

Error refused(std::string message, std::string subject = {}) {
  return make_error(Errc::refused, std::move(message), std::move(subject));
}

Result<const Kind*> kind_named(const KindPack& kinds, std::string_view name) {
  if (const Kind* k = kinds.by_name(name)) return k;
  std::vector<std::string> names{"field"};
  for (const Kind& k : kinds.kinds()) names.push_back(k.name);
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  if (auto near = closest_name(name, names))
    return usage("unknown kind " + shown_quoted(name) + "; did you mean '" + *near + "'?", std::string(name));
  return usage("unknown kind " + shown_quoted(name) + "; known kinds: " + list, std::string(name));
}

// The one kind whose definitions have fields (node types, in the default pack).
Result<const Kind*> kind_with_fields(const KindPack& kinds) {
  const Kind* found = nullptr;
  for (const Kind& k : kinds.kinds()) {
    if (k.member_pointer.empty()) continue;
    if (found) return usage("'field' is ambiguous: kinds '" + found->name + "' and '" + k.name + "' both have fields");
    found = &k;
  }
  if (!found) return usage("no kind has fields, so there is no field to rename");
  return found;
}

// A new name every reader takes back as written: a C# identifier where
// code can name it, a file-name-like word otherwise (ws-rename(1)).
std::optional<Error> check_new_name(const Kind& kind, const Target& t) {
  bool symbol = !kind.symbol_root.empty() || !t.member.empty();
  if (t.new_name == t.old_word()) return usage("the new name is the old one: " + shown_quoted(t.new_name));
  if (symbol && !is_valid_symbol_name(t.new_name))
    return usage("invalid new name " + shown_quoted(t.new_name) +
                     ": not a C# identifier (ASCII letters, digits and '_', not starting with a digit, not a keyword)",
                 t.new_name);
  if (!symbol && !is_valid_id_segment(t.new_name))
    return usage("invalid new name " + shown_quoted(t.new_name) + ": use ASCII letters, digits, '.', '_' and '-'",
                 t.new_name);
  return std::nullopt;
}

Result<Target> resolve_target(const KindPack& kinds, const RenameRequest& r) {
  Target t;
  t.new_name = r.new_name;
  if (r.kind == "field") {
    auto k = kind_with_fields(kinds);
    if (!k) return k.error();
    t.kind = *k;
    auto dot = r.old_name.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == r.old_name.size() ||
        r.old_name.find('.', dot + 1) != std::string::npos)
      return usage("a field is named OWNER.FIELD ('Ticket.Status'), not " + shown_quoted(r.old_name), r.old_name);
    t.name = r.old_name.substr(0, dot);
    t.member = r.old_name.substr(dot + 1);
    const auto& implicit = t.kind->implicit_members;
    if (std::find(implicit.begin(), implicit.end(), t.member) != implicit.end())
      return usage("field " + shown_quoted(t.member) + " is implicit in every " + t.kind->name +
                   ": it has no declaration to rename");
  } else {
    auto k = kind_named(kinds, r.kind);
    if (!k) return k.error();
    t.kind = *k;
    t.name = r.old_name;
    if (t.kind->never_read || t.kind->name_from_filename)
      return usage("a " + t.kind->name + " is named by its file, which ws never opens or moves; "
                   "rename the file and its referrers by hand");
  }
  if (auto bad = check_new_name(*t.kind, t)) return *bad;
  return t;
}

// Whether a definition of `kind` can name the target at all.
bool may_refer(const Kind& kind, const Target& t) {
  if (&kind == t.kind) return true;
  if (kind.format == Format::csharp)
    return !t.kind->symbol_root.empty() &&
           std::find(kind.scope.begin(), kind.scope.end(), t.kind->symbol_root) != kind.scope.end();
  return std::any_of(kind.refs.begin(), kind.refs.end(),
                     [&](const RefSpec& r) { return r.target_kind == t.kind->name; });
}

// The paths to read, in path order: the view's changed files of a kind
// that may refer to the target, and the unchanged files `known` names as
// referring to it or defining the old or the new name; without `known`
// every file of such a kind.
Result<std::vector<std::string>> candidate_paths(const Workspace& ws, const Target& t, const KnownDefinitions* known,
                                                 bool definers_only = false) {
  std::set<std::string> paths;
  std::optional<View> whole;
  const View* view = &ws.view;
  if (!known && ws.view_spec.changes_only) {
    auto w = whole_view(ws);
    if (!w) return w.error();
    whole = std::move(*w);
    view = &*whole;
  }
  for (const ViewEntry& e : view->entries()) {
    if (e.status == ChangeStatus::deleted || view->is_secret(e)) continue;
    if (known && e.status == ChangeStatus::unchanged && known->knows(e.path)) continue;
    const Kind* k = ws.kinds.route(e.path);
    if (k && !k->never_read && (definers_only ? k == t.kind : may_refer(*k, t))) paths.insert(e.path);
  }
  if (known) {
    auto add_unchanged = [&](std::string_view path) {
      const ViewEntry* e = ws.view.find(path);
      if (!e || e->status == ChangeStatus::unchanged) paths.emplace(path);
    };
    if (!definers_only) known->referrers(*t.kind, t.name, add_unchanged);
    known->definers(*t.kind, t.name, add_unchanged);
    if (t.member.empty() && !t.new_name.empty()) known->definers(*t.kind, t.new_name, add_unchanged);
  }
  return std::vector<std::string>(paths.begin(), paths.end());
}

// One file read and parsed, as the plan sees it.
struct ReadFile {
  std::string path;
  const Kind* kind = nullptr;
  std::string bytes;
  Definition def;
};

// Where the plan reads definitions from: the files, and for the unchanged
// ones the base's index, with the base's blob id of each file it knows.
struct Sources {
  const Workspace& ws;
  const KnownDefinitions* known = nullptr;
  std::map<std::string, std::string, std::less<>> base_ids;  // path -> blob id in the base
  const Buffers* buffers = nullptr;  // taken in place of the disk's bytes
};

// The base's blob ids of the unchanged paths `known` knows, read folder by folder.
Result<Sources> sources_for(const Workspace& ws, const KnownDefinitions* known, const std::vector<std::string>& paths,
                            const Buffers* buffers) {
  Sources in{ws, known, {}, buffers};
  if (!known || !ws.repo || ws.view.base_commit().empty()) return in;
  std::vector<std::string> unchanged;
  for (const std::string& p : paths) {
    const ViewEntry* e = ws.view.find(p);
    if ((!e || e->status == ChangeStatus::unchanged) && known->knows(p)) unchanged.push_back(p);
  }
  auto entries = ws.repo->entries_at(ws.view.base_commit(), unchanged);
  if (!entries) return entries.error();
  for (std::size_t i = 0; i < unchanged.size(); ++i)
    if ((*entries)[i]) in.base_ids.emplace(unchanged[i], (*entries)[i]->blob_id.hex());
  return in;
}

// The place of `word` (or `@word`) at the end of `span` of `bytes`: the
// last token of a code chain. Empty when the bytes there are not it.
Span tail_token(std::string_view bytes, const Span& span, const std::string& word) {
  for (std::size_t len : {word.size(), word.size() + 1}) {
    if (len > span.end_byte - span.start_byte || len >= span.end.column) continue;
    std::string_view raw = bytes.substr(span.end_byte - len, len);
    if (raw.substr(raw.size() - word.size()) != word || (len > word.size() && raw[0] != '@')) continue;
    auto n = static_cast<std::uint32_t>(len);
    return Span{span.end_byte - n, span.end_byte, {span.end.line, span.end.column - n}, span.end};
  }
  return Span{};
}

// The reading of `path` that the base's index holds, when the file on the
// disk has the base's bytes (same blob id) and is unchanged in the view:
// the spans a rename needs are those the reader gave, without parsing the
// file again (the index keeps whole spans only, so each reference to the
// target gets its name's or member's place back from the bytes). nullopt:
// the file must be parsed, as for a chain that names a member of the
// target, whose name stands in its middle.
std::optional<Definition> known_reading(const Sources& in, const Target& t, const std::string& path,
                                        std::string_view bytes) {
  auto base = in.base_ids.find(path);
  if (!in.known || base == in.base_ids.end() || base->second != detail::blob_id_hex(bytes)) return std::nullopt;
  auto def = in.known->definition(path);
  if (!def) return std::nullopt;
  for (Reference& r : def->refs) {
    if (r.target_kind != t.kind->name || r.name != t.name) continue;
    Span& at = r.member.empty() ? r.name_at : r.member_at;
    if (r.origin == RefOrigin::json) {
      at = r.span;  // the string's text, as the JSON reader gives it
      continue;
    }
    if (!r.member.empty() && t.member.empty()) return std::nullopt;
    at = tail_token(bytes, r.span, r.member.empty() ? r.name : r.member);
    if (at.end_byte == at.start_byte) return std::nullopt;
  }
  return def;
}

// The bytes of `path`: the editor's buffer of it, or the disk's as the
// write will read them (WorkspaceRoot::read_for_write).
WorkspaceRoot::ReadResult read_source(const Sources& in, const std::string& path) {
  if (in.buffers)
    if (auto b = in.buffers->find(path); b != in.buffers->end() && is_overlay_path(path)) {
      WorkspaceRoot::ReadResult r;
      r.ok = true;
      r.bytes = b->second;
      return r;
    }
  return in.ws.root->read_for_write(path, in.ws.config.size_cap);
}

// Reads `path` as the write will (WorkspaceRoot::read_for_write); a file
// that cannot be read could refer to the name, so the rename stops.
Result<std::optional<ReadFile>> read_candidate(const Sources& in, const Target& t, const std::string& path) {
  const Workspace& ws = in.ws;
  const Kind* kind = ws.kinds.route(path);
  // A secret names itself by its file: nothing to read, and never opened.
  if (!kind || kind->never_read || is_secret_path(path)) return std::optional<ReadFile>();
  auto r = read_source(in, path);
  if (!r.ok) {
    if (r.error.rule == FileRule::not_found) return std::optional<ReadFile>();
    return make_error(Errc::refused, "refused to rename: " + r.error.message(), path, to_rule(r.error.rule));
  }
  ViewEntry e;
  e.path = path;
  e.from_worktree = true;
  if (ws.view.bytes_are_secret(e, r.bytes)) return std::optional<ReadFile>();
  // A file that names neither the old name (a field's owner included) nor
  // the new one, and escapes nothing, cannot mention them.
  auto names = [&](const std::string& word) { return r.bytes.find(word) != std::string::npos; };
  bool names_new = !t.new_name.empty() && names(t.new_name);
  if (!names(t.name) && !names(t.old_word()) && !names_new && !names("\\")) return std::optional<ReadFile>();
  ReadFile f{path, kind, std::move(r.bytes), {}};
  if (auto k = known_reading(in, t, path, f.bytes)) f.def = std::move(*k);
  else f.def = read_definition(*kind, path, f.bytes, ws.kinds);
  return std::optional<ReadFile>(std::move(f));
}

const Member* member_named(const Definition& d, std::string_view name) {
  for (const Member& m : d.members)
    if (m.name == name && m.span.start_byte != d.name_span.start_byte) return &m;
  return nullptr;
}

// The spans of `f` that spell the target: its own name (or field) and the
// references to it.
std::vector<Span> target_spans(const ReadFile& f, const Target& t, bool& defines) {
  std::vector<Span> out;
  defines = false;
  if (f.kind == t.kind && f.def.has_name && f.def.name == t.name) {
    const Member* m = t.member.empty() ? nullptr : member_named(f.def, t.member);
    if (t.member.empty()) out.push_back(f.def.name_span);
    if (m) out.push_back(m->span);
    defines = t.member.empty() || m;
  }
  for (const Reference& r : f.def.refs) {
    if (r.target_kind != t.kind->name || r.name != t.name) continue;
    const Span& at = t.member.empty() ? r.name_at : (r.member == t.member ? r.member_at : Span{});
    if (at.end_byte > at.start_byte) out.push_back(at);
  }
  std::sort(out.begin(), out.end(), [](const Span& a, const Span& b) { return a.start_byte < b.start_byte; });
  return out;
}

// The edit of one span: its bytes must spell the old word plainly (a C#
// verbatim `@` kept); an escaped spelling is refused, not guessed at.
Result<TextEdit> edit_at(const ReadFile& f, const Span& at, const Target& t) {
  std::string_view raw = std::string_view(f.bytes).substr(at.start_byte, at.end_byte - at.start_byte);
  bool verbatim = raw.size() == t.old_word().size() + 1 && raw[0] == '@';
  if (raw != t.old_word() && !(verbatim && raw.substr(1) == t.old_word()))
    return refused("refused to rename in " + shown_quoted(f.path) + " at line " + std::to_string(at.start.line) + ": " +
                       shown_quoted(raw) + " spells " + shown_quoted(t.old_word()) + " with escapes; write it plainly, then run "
                       "ws rename again",
                   f.path);
  return TextEdit{at, (verbatim ? "@" : "") + t.new_name};
}

std::string apply_edits(std::string_view bytes, const std::vector<TextEdit>& edits) {
  std::string out;
  out.reserve(bytes.size() + edits.size() * 16);
  std::size_t at = 0;
  for (const TextEdit& e : edits) {
    out.append(bytes.substr(at, e.span.start_byte - at));
    out += e.text;
    at = e.span.end_byte;
  }
  out.append(bytes.substr(at));
  return out;
}

// Whether `after` reads as `f` did with the target renamed, and nothing
// else changed: the name, the members, every reference and the number of
// diagnostics. Guards against an edit a reader takes otherwise (a YAML
// word that is not a string, an edit that joins two tokens).
bool reads_back(const ReadFile& f, const std::string& after, const Target& t, bool defines, const KindPack& kinds) {
  Definition d = read_definition(*f.kind, f.path, after, kinds);
  const Definition& was = f.def;
  bool renames_def = defines && t.member.empty();
  if (d.diagnostics.size() != was.diagnostics.size() || d.has_name != was.has_name) return false;
  if (d.name != (renames_def ? t.new_name : was.name)) return false;
  if (d.members.size() != was.members.size() || d.refs.size() != was.refs.size()) return false;
  for (std::size_t i = 0; i < d.members.size(); ++i) {
    bool field = defines && !t.member.empty() && was.members[i].name == t.member &&
                 was.members[i].span.start_byte != was.name_span.start_byte;
    if (d.members[i].name != (field ? t.new_name : was.members[i].name)) return false;
  }
  for (std::size_t i = 0; i < d.refs.size(); ++i) {
    const Reference& a = was.refs[i];
    const Reference& b = d.refs[i];
    bool ours = a.target_kind == t.kind->name && a.name == t.name;
    std::string name = ours && t.member.empty() ? t.new_name : a.name;
    std::string member = ours && !t.member.empty() && a.member == t.member ? t.new_name : a.member;
    if (b.target_kind != a.target_kind || b.name != name || b.member != member) return false;
  }
  return true;
}

// The file's rename, or nullopt when it does not spell the target.
Result<std::optional<FileRename>> plan_file(const ReadFile& f, const Target& t, const KindPack& kinds) {
  bool defines = false;
  std::vector<Span> spans = target_spans(f, t, defines);
  if (spans.empty()) return std::optional<FileRename>();
  FileRename out;
  out.path = f.path;
  out.defines = defines;
  for (const Span& at : spans) {
    auto e = edit_at(f, at, t);
    if (!e) return e.error();
    out.edits.push_back(std::move(*e));
  }
  out.after = apply_edits(f.bytes, out.edits);
  // Read back where a word could read otherwise: front matter and a C#
  // header, whose values are YAML scalars ('True' is a boolean there).
  // Not the rest, which a parse would only confirm at most of a rename's
  // cost: in code each edit puts an identifier that is no keyword in place
  // of an identifier token, which leaves every token as it was; in JSON a
  // string's plain text becomes other plain text (letters, digits, '.',
  // '_', '-'), which needs no escape.
  bool yaml_value = f.kind->format == Format::markdown || (f.kind->format == Format::csharp && defines);
  if (yaml_value && !reads_back(f, out.after, t, defines, kinds))
    return refused("refused to rename in " + shown_quoted(f.path) + ": the file would read back as more than the name "
                   "changed; rename it there by hand",
                   f.path);
  out.before = f.bytes;
  return std::optional<FileRename>(std::move(out));
}

std::string symbol_of(const Target& t, const std::string& word) {
  return t.member.empty() ? word : t.name + "." + word;
}

std::string paths_list(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& p : paths) out += (out.empty() ? "" : ", ") + shown_quoted(p);
  return out;
}

// The rules on what was found: the old name defined exactly once, the new
// one nowhere.
std::optional<Error> check_found(const Target& t, const std::vector<std::string>& definers,
                                 const std::vector<std::string>& owners, const std::vector<std::string>& taken) {
  std::string what = t.member.empty() ? t.kind->name + " " + shown_quoted(t.name)
                                      : "field " + shown_quoted(t.name + "." + t.member);
  if (!taken.empty())
    return refused("refused to rename: " + (t.member.empty() ? t.kind->name + " " : std::string("field ")) +
                       shown_quoted(symbol_of(t, t.new_name)) + " exists already, in " + paths_list(taken) +
                       "; choose another name",
                   t.new_name);
  if (definers.empty() && !t.member.empty() && !owners.empty())
    return make_error(Errc::refused,
                      t.kind->name + " " + shown_quoted(t.name) + " has no field " + shown_quoted(t.member) + " (in " +
                          paths_list(owners) + ")",
                      t.member);
  if (definers.empty())
    return make_error(Errc::refused,
                      "no " + t.kind->name + " named " + shown_quoted(t.name) + " in the working tree; see 'ws-ls --kind " +
                          t.kind->name + "'",
                      t.name);
  if (definers.size() > 1)
    return refused("refused to rename: " + what + " is defined " + std::to_string(definers.size()) + " times, in " +
                       paths_list(definers) + "; ws-build reports it, fix that first",
                   t.name);
  return std::nullopt;
}

}  // namespace

Result<RenamePlan> plan_rename(const Workspace& ws, const RenameRequest& request, const KnownDefinitions* known,
                               const Buffers* buffers) {
  if (!ws.root) return make_error(Errc::environment, "ws rename needs a working tree; this repository is bare");
  auto target = resolve_target(ws.kinds, request);
  if (!target) return target.error();
  const Target& t = *target;
  auto paths = candidate_paths(ws, t, known);
  if (!paths) return paths.error();
  auto sources = sources_for(ws, known, *paths, buffers);
  if (!sources) return sources.error();
  RenamePlan plan{t.kind->name, symbol_of(t, t.old_word()), symbol_of(t, t.new_name), {}, 0};
  std::vector<std::string> definers, owners, taken;
  for (const std::string& path : *paths) {
    auto f = read_candidate(*sources, t, path);
    if (!f) return f.error();
    if (!*f) continue;
    const ReadFile& file = **f;
    bool owner = file.kind == t.kind && file.def.has_name && file.def.name == t.name;
    if (owner) owners.push_back(path);
    if (file.kind == t.kind && file.def.has_name && t.member.empty() && file.def.name == t.new_name)
      taken.push_back(path);
    if (owner && !t.member.empty() && member_named(file.def, t.new_name)) taken.push_back(path);
    auto planned = plan_file(file, t, ws.kinds);
    if (!planned) return planned.error();
    if (!*planned) continue;
    // Only a file to be written answers to the policy for writing.
    if (auto bad = check_path(path, write_policy(ws.config.protected_paths)))
      return refused("refused to rename: " + bad->message(), path);
    if ((*planned)->defines) definers.push_back(path);
    plan.references += (*planned)->edits.size() - ((*planned)->defines ? 1 : 0);
    plan.files.push_back(std::move(**planned));
  }
  if (auto bad = check_found(t, definers, owners, taken)) return *bad;
  return plan;
}

Result<std::vector<SymbolUse>> find_symbol_uses(const Workspace& ws, const Symbol& symbol,
                                                const KnownDefinitions* known, const Buffers* buffers,
                                                bool declarations_only) {
  if (!ws.root) return make_error(Errc::environment, "finding a symbol needs a working tree; this repository is bare");
  auto kind = kind_named(ws.kinds, symbol.kind);
  if (!kind) return kind.error();
  Target t{*kind, symbol.name, symbol.member, {}};
  auto paths = candidate_paths(ws, t, known, declarations_only);
  if (!paths) return paths.error();
  auto sources = sources_for(ws, known, *paths, buffers);
  if (!sources) return sources.error();
  std::vector<SymbolUse> uses;
  for (const std::string& path : *paths) {
    // A secret is declared by its file's name, which needs no opening.
    if (t.kind->name_from_filename && ws.kinds.route(path) == t.kind) {
      if (path.substr(path.rfind('/') + 1) == t.name) uses.push_back(SymbolUse{path, Span{}, true});
      continue;
    }
    auto f = read_candidate(*sources, t, path);
    if (!f) return f.error();
    if (!*f) continue;
    const ReadFile& file = **f;
    bool defines = false;
    std::vector<Span> spans = target_spans(file, t, defines);
    Span declared;
    if (defines) declared = t.member.empty() ? file.def.name_span : member_named(file.def, t.member)->span;
    for (const Span& at : spans) {
      bool declaration = defines && at.start_byte == declared.start_byte && at.end_byte == declared.end_byte;
      if (declaration || !declarations_only) uses.push_back(SymbolUse{path, at, declaration});
    }
  }
  return uses;
}

Status apply_rename(const Workspace& ws, const RenamePlan& plan) {
  if (!ws.root) return make_error(Errc::environment, "ws rename needs a working tree; this repository is bare");
  std::vector<WorkspaceRoot::Replacement> files;
  // The defining file last: a run cut short leaves the old name defined,
  // so the same command finds what is left and finishes it.
  for (int pass = 0; pass < 2; ++pass)
    for (const FileRename& f : plan.files)
      if (f.defines == (pass == 1)) files.push_back({f.path, f.before, f.after});
  return ws.root->replace_all(files, ws.config.size_cap);
}

}  // namespace ws
