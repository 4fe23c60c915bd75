// The language server (lsp.h, ws-lsp(1)): JSON-RPC messages in, messages
// out; the workspace opened once and again after a save, the editor's
// buffers laid over it for every answer.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "libcheck/buffer_overlay.h"
#include "libcheck/compile.h"
#include "libcheck/listing.h"
#include "libcheck/lsp.h"
#include "libcheck/reader.h"
#include "libcheck/rename.h"
#include "definition_fields.h"
#include "json_rpc.h"
#include "lsp_text.h"

namespace ws::lsp {

using nlohmann::json;
using detail::Encoding;
using detail::LinePos;
using detail::TextLines;

namespace {

using ws::detail::jsonrpc::dump;
using ws::detail::jsonrpc::kInternalError;
using ws::detail::jsonrpc::kInvalidParams;
using ws::detail::jsonrpc::kInvalidRequest;
using ws::detail::jsonrpc::kMethodNotFound;
using ws::detail::jsonrpc::kParseError;
using ws::detail::jsonrpc::member;
using ws::detail::jsonrpc::string_member;

// The protocol's own error codes.
constexpr int kServerNotInitialized = -32002;
constexpr int kRequestCancelled = -32800;
constexpr int kRequestFailed = -32803;

json error_message(const json& id, int code, const std::string& message) {
  return ws::detail::jsonrpc::error_response(id, code, message);
}

json notification(const char* method, json params) { return ws::detail::jsonrpc::notification(method, std::move(params)); }

std::optional<std::uint32_t> count_member(const json& o, const char* key) {
  const json* v = member(o, key);
  if (!v || !v->is_number_unsigned() || v->get<std::uint64_t>() > UINT32_MAX) return std::nullopt;
  return static_cast<std::uint32_t>(v->get<std::uint64_t>());
}

std::optional<LinePos> position_member(const json& o, const char* key) {
  const json* p = member(o, key);
  if (!p) return std::nullopt;
  auto line = count_member(*p, "line");
  auto character = count_member(*p, "character");
  if (!line || !character) return std::nullopt;
  return LinePos{*line, *character};
}

// What a request answers: a result, or an error (code and message).
struct Answer {
  json result;
  int code = 0;
  std::string message;
};
Answer fail(int code, std::string message) { return Answer{nullptr, code, std::move(message)}; }
Answer bad_params(const char* what) { return fail(kInvalidParams, std::string("invalid params: ") + what); }

json range_json(LinePos a, LinePos b) {
  return {{"start", {{"line", a.line}, {"character", a.character}}}, {"end", {{"line", b.line}, {"character", b.character}}}};
}

int severity_code(Severity s) {
  switch (s) {
    case Severity::error: return 1;
    case Severity::warning: return 2;
    case Severity::note: return 3;
  }
  return 1;
}

struct Document {
  std::string uri;
  std::string text;
  std::int64_t version = 0;
};

// The request a position names: the symbol under it and where it is spelt.
struct SymbolAt {
  Symbol symbol;
  Span span;
};

bool within(const Span& s, std::size_t offset) {
  return s.end_byte > s.start_byte && offset >= s.start_byte && offset <= s.end_byte;
}

}  // namespace

struct Server::State {
  ServerOptions options;
  enum class Phase { fresh, running, shut_down } phase = Phase::fresh;
  std::optional<int> exit_code;
  Encoding encoding = Encoding::utf16;
  // The workspace; its view is the working tree's with the buffers laid
  // over it (overlay()), changed in place: the base's index and every kind
  // a reader gives point into its kind pack.
  std::optional<Workspace> ws;
  View disk_view;  // the working tree's view, changes only, as last opened
  std::unique_ptr<KnownDefinitions> known;
  std::map<std::string, Document, std::less<>> docs;  // by root-relative path
  std::set<std::string> published;                    // paths last published with findings
  bool pending = false;

  // --- the workspace ---

  Status open(const std::string& dir) {
    OpenOptions oo;
    oo.dir = dir;
    oo.kinds_dir = options.kinds_dir;
    oo.view.changes_only = true;
    auto w = open_workspace(oo);
    if (!w) return w.error();
    if (!w->root) return make_error(Errc::environment, "ws lsp needs a working tree; this repository is bare");
    // One build of the disk's view keeps the definition cache and the
    // base's index that the builds over the buffers read.
    auto built = build(*w, BuildOptions{});
    if (!built) return built.error();
    // The index points into the kind pack it is loaded over: the one kept.
    known.reset();
    ws = std::move(*w);
    known = saved_base_definitions(*ws);
    disk_view = ws->view;
    return Ok{};
  }

  // The workspace with the buffers as they are now laid over the disk's view.
  Result<const Workspace*> overlay() {
    ws->view = disk_view;
    auto view = with_buffers(*ws, buffers());
    if (!view) return view.error();
    ws->view = std::move(*view);
    return &*ws;
  }

  // After the disk changed (a save, a watched file): the view again.
  std::optional<std::string> reopen() {
    if (!ws) return std::nullopt;
    if (auto st = open(ws->root->path()); !st) return st.error().message;
    return std::nullopt;
  }

  Buffers buffers() const {
    Buffers out;
    for (const auto& [path, doc] : docs) out.emplace(path, doc.text);
    return out;
  }

  // The root-relative path of a file: URI under the root; nullopt outside
  // it or for a path the view may not take from a buffer.
  std::optional<std::string> path_of(std::string_view uri) const {
    auto abs = detail::uri_path(uri);
    if (!abs || !ws) return std::nullopt;
    const std::string& root = ws->root->path();
    auto rel = relative_to(root, *abs);
    if (!rel) {
      // The editor may name the root through a link: its folder resolved.
      std::size_t slash = abs->rfind('/');
      std::unique_ptr<char, decltype(&std::free)> real(realpath(abs->substr(0, slash).c_str(), nullptr), &std::free);
      if (real) rel = relative_to(root, std::string(real.get()) + abs->substr(slash));
    }
    if (!rel || !is_overlay_path(*rel) || under_link(root, *rel)) return std::nullopt;
    return rel;
  }

  // `path` relative to `root`, when it lies beneath it.
  static std::optional<std::string> relative_to(const std::string& root, const std::string& path) {
    if (path.size() <= root.size() + 1 || path.compare(0, root.size(), root) != 0 || path[root.size()] != '/')
      return std::nullopt;
    return path.substr(root.size() + 1);
  }

  // Whether a folder on the way to `rel` is a symbolic link: a buffer there
  // would stand for a file beyond the link, which no tool follows.
  static bool under_link(const std::string& root, const std::string& rel) {
    for (std::size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', slash + 1)) {
      struct stat st;
      if (::lstat((root + "/" + rel.substr(0, slash)).c_str(), &st) != 0) return false;
      if (S_ISLNK(st.st_mode)) return true;
    }
    return false;
  }

  std::string uri_of(const std::string& path) const { return detail::path_uri(ws->root->path() + "/" + path); }

  // The bytes of `path` as the editor sees them: its buffer, else the view's.
  std::optional<std::string> text_of(const Workspace& view, const std::string& path) const {
    if (auto d = docs.find(path); d != docs.end()) return d->second.text;
    return read_view_path(view, path);
  }

  // --- diagnostics ---

  json diagnostic_json(const Diagnostic& d, const std::optional<TextLines>& lines) const {
    auto at = [&](std::uint32_t byte, Position p) {
      return lines ? lines->position(byte) : LinePos{p.line > 0 ? p.line - 1 : 0, p.column > 0 ? p.column - 1 : 0};
    };
    LinePos a{}, b{};
    if (d.has_span) {
      a = at(d.span.start_byte, d.span.start);
      b = at(d.span.end_byte, d.span.end);
    }
    json out = {{"range", range_json(a, b)},
                {"severity", severity_code(d.severity)},
                {"code", diag_info(d.code).id},
                {"codeDescription", {{"href", "man:ws-build(1)"}}},
                {"source", "ws"},
                {"message", d.message}};
    json related = json::array();
    for (const Note& n : d.notes) {
      std::string path = n.path.empty() ? d.path : n.path;
      LinePos p{n.span.start.line > 0 ? n.span.start.line - 1 : 0, n.span.start.column > 0 ? n.span.start.column - 1 : 0};
      if (!n.has_span) p = a;
      related.push_back({{"location", {{"uri", uri_of(path)}, {"range", range_json(p, p)}}}, {"message", n.message}});
    }
    if (!related.empty()) out["relatedInformation"] = std::move(related);
    return out;
  }

  json publish_json(const std::string& path, json diagnostics) const {
    json params = {{"uri", uri_of(path)}, {"diagnostics", std::move(diagnostics)}};
    if (auto d = docs.find(path); d != docs.end()) params["version"] = d->second.version;
    return notification("textDocument/publishDiagnostics", std::move(params));
  }

  std::vector<std::string> publish() {
    pending = false;
    if (!ws) return {};
    auto view = overlay();
    if (!view) return {log(view.error().message)};
    BuildOptions bo;
    bo.save_cache = false;
    auto result = build(**view, bo);
    if (!result) return {log(result.error().message)};
    std::map<std::string, std::vector<const Diagnostic*>> by_path;
    for (const Diagnostic& d : result->diagnostics) by_path[d.path].push_back(&d);
    std::vector<std::string> out;
    // Every open file is answered, with no findings too, so the editor
    // knows its version was checked; a file that had findings gets an
    // empty list when they are gone.
    for (const auto& [path, doc] : docs) by_path[path];
    for (const std::string& path : published)
      if (!by_path.count(path)) out.push_back(dump(publish_json(path, json::array())));
    published.clear();
    for (const auto& [path, list] : by_path) {
      std::optional<std::string> text = text_of(**view, path);
      std::optional<TextLines> lines;
      if (text) lines.emplace(*text, encoding);
      json diags = json::array();
      for (const Diagnostic* d : list) diags.push_back(diagnostic_json(*d, lines));
      if (!diags.empty()) published.insert(path);
      out.push_back(dump(publish_json(path, std::move(diags))));
    }
    return out;
  }

  std::string log(const std::string& message) const {
    return dump(notification("window/logMessage", {{"type", 1}, {"message", "ws lsp: " + message}}));
  }

  // --- the lifecycle ---

  std::string root_dir(const json& params) const {
    if (auto uri = string_member(params, "rootUri"))
      if (auto p = detail::uri_path(*uri)) return *p;
    if (auto p = string_member(params, "rootPath")) return *p;
    if (const json* folders = member(params, "workspaceFolders"); folders && folders->is_array() && !folders->empty())
      if (auto uri = string_member((*folders)[0], "uri"))
        if (auto p = detail::uri_path(*uri)) return *p;
    return options.dir.empty() ? "." : options.dir;
  }

  static json capabilities(Encoding encoding) {
    return {{"positionEncoding", encoding == Encoding::utf8 ? "utf-8" : "utf-16"},
            {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
            {"definitionProvider", true},
            {"referencesProvider", true},
            {"hoverProvider", true},
            {"documentSymbolProvider", true},
            {"completionProvider", {{"triggerCharacters", {"."}}}},
            {"renameProvider", {{"prepareProvider", true}}}};
  }

  Answer initialize(const json& params) {
    if (phase != Phase::fresh) return fail(kInvalidRequest, "initialize came twice");
    const json* caps = member(params, "capabilities");
    if (const json* general = caps ? member(*caps, "general") : nullptr)
      if (const json* encodings = member(*general, "positionEncodings"); encodings && encodings->is_array())
        for (const json& e : *encodings)
          if (e == "utf-8") encoding = Encoding::utf8;
    if (auto st = open(root_dir(params)); !st)
      return fail(kRequestFailed, st.error().message);
    phase = Phase::running;
    pending = true;
    return Answer{{{"capabilities", capabilities(encoding)},
                   {"serverInfo", {{"name", "ws"}, {"version", tool_version()}}}}};
  }

  // --- documents ---

  void did_open(const json& params) {
    const json* td = member(params, "textDocument");
    if (!td) return;
    auto uri = string_member(*td, "uri");
    auto text = string_member(*td, "text");
    auto path = uri ? path_of(*uri) : std::nullopt;
    if (!path || !text) return;
    const json* version = member(*td, "version");
    docs[*path] = Document{*uri, *text, version && version->is_number_integer() ? version->get<std::int64_t>() : 0};
    pending = true;
  }

  // One change of didChange: a range replaced, or the whole text.
  static bool apply_change(Document& doc, const json& change, Encoding encoding) {
    auto text = string_member(change, "text");
    if (!text) return false;
    const json* range = member(change, "range");
    if (!range) {
      doc.text = *text;
      return true;
    }
    auto a = position_member(*range, "start");
    auto b = position_member(*range, "end");
    if (!a || !b) return false;
    TextLines lines(doc.text, encoding);
    std::size_t from = lines.offset(*a), to = lines.offset(*b);
    if (to < from) return false;
    doc.text.replace(from, to - from, *text);
    return true;
  }

  void did_change(const json& params) {
    const json* td = member(params, "textDocument");
    const json* changes = member(params, "contentChanges");
    if (!td || !changes || !changes->is_array()) return;
    auto uri = string_member(*td, "uri");
    auto path = uri ? path_of(*uri) : std::nullopt;
    auto doc = path ? docs.find(*path) : docs.end();
    if (doc == docs.end()) return;
    for (const json& c : *changes)
      if (!apply_change(doc->second, c, encoding)) break;
    if (const json* version = member(*td, "version"); version && version->is_number_integer())
      doc->second.version = version->get<std::int64_t>();
    pending = true;
  }

  void did_close(const json& params) {
    const json* td = member(params, "textDocument");
    auto uri = td ? string_member(*td, "uri") : std::nullopt;
    auto path = uri ? path_of(*uri) : std::nullopt;
    if (path && docs.erase(*path)) pending = true;
  }

  std::vector<std::string> disk_changed() {
    pending = true;
    if (auto err = reopen()) return {log(*err)};
    return {};
  }

  // --- requests on a position ---

  struct Place {
    std::string path;
    std::string text;
    std::size_t offset = 0;
  };

  std::optional<Place> place_of(const json& params) const {
    const json* td = member(params, "textDocument");
    auto uri = td ? string_member(*td, "uri") : std::nullopt;
    auto path = uri ? path_of(*uri) : std::nullopt;
    auto pos = position_member(params, "position");
    if (!path || !pos) return std::nullopt;
    auto text = text_of(*ws, *path);
    if (!text) return std::nullopt;
    std::size_t offset = TextLines(*text, encoding).offset(*pos);
    return Place{*path, std::move(*text), offset};
  }

  std::optional<Definition> definition_of(const std::string& path, const std::string& text) const {
    const Kind* kind = ws->kinds.route(path);
    if (!kind || kind->never_read) return std::nullopt;
    return read_definition(*kind, path, text, ws->kinds);
  }

  std::optional<SymbolAt> symbol_at(const Place& at) const {
    auto def = definition_of(at.path, at.text);
    if (!def) return std::nullopt;
    for (const Reference& r : def->refs) {
      if (!r.member.empty() && within(r.member_at, at.offset)) return SymbolAt{{r.target_kind, r.name, r.member}, r.member_at};
      if (within(r.name_at, at.offset)) return SymbolAt{{r.target_kind, r.name, ""}, r.name_at};
    }
    if (def->has_name && within(def->name_span, at.offset)) return SymbolAt{{def->kind, def->name, ""}, def->name_span};
    for (const Member& m : def->members)
      if (m.span.start_byte != def->name_span.start_byte && within(m.span, at.offset))
        return SymbolAt{{def->kind, def->name, m.name}, m.span};
    return std::nullopt;
  }

  json location_json(const Workspace& view, const SymbolUse& use) const {
    auto text = text_of(view, use.path);
    LinePos a{}, b{};
    if (text) {
      TextLines lines(*text, encoding);
      a = lines.position(use.span.start_byte);
      b = lines.position(use.span.end_byte);
    }
    return {{"uri", uri_of(use.path)}, {"range", range_json(a, b)}};
  }

  Result<std::vector<SymbolUse>> uses_of(const Workspace& view, const Symbol& s, bool declarations_only) const {
    Buffers bufs = buffers();
    return find_symbol_uses(view, s, known.get(), &bufs, declarations_only);
  }

  Answer locations(const json& params, bool declarations_only) {
    auto at = place_of(params);
    if (!at) return bad_params("textDocument and position");
    auto sym = symbol_at(*at);
    if (!sym) return Answer{json::array()};
    auto view = overlay();
    if (!view) return fail(kRequestFailed, view.error().message);
    auto uses = uses_of(**view, sym->symbol, declarations_only);
    if (!uses) return fail(kRequestFailed, uses.error().message);
    bool with_declaration = true;
    if (const json* ctx = member(params, "context"))
      if (const json* d = member(*ctx, "includeDeclaration"); d && d->is_boolean()) with_declaration = d->get<bool>();
    json out = json::array();
    for (const SymbolUse& u : *uses)
      if (declarations_only || with_declaration || !u.declaration) out.push_back(location_json(**view, u));
    return Answer{std::move(out)};
  }

  Answer hover(const json& params) {
    auto at = place_of(params);
    if (!at) return bad_params("textDocument and position");
    auto sym = symbol_at(*at);
    if (!sym) return Answer{nullptr};
    auto view = overlay();
    if (!view) return fail(kRequestFailed, view.error().message);
    auto uses = uses_of(**view, sym->symbol, true);
    if (!uses) return fail(kRequestFailed, uses.error().message);
    const Symbol& s = sym->symbol;
    std::string md = s.member.empty() ? "**" + s.kind + "** `" + s.name + "`"
                                      : "field `" + s.member + "` of " + s.kind + " `" + s.name + "`";
    if (uses->empty()) md += "\n\nnot defined in the working tree";
    for (const SymbolUse& u : *uses) {
      auto text = s.member.empty() ? text_of(**view, u.path) : std::nullopt;
      const Kind* kind = ws->kinds.route(u.path);
      if (text && kind) {
        nlohmann::json object = ws::detail::definition_object(*kind, *text);
        if (auto description = string_member(object, "description")) md += "\n\n" + *description;
      }
      md += "\n\ndefined in `" + u.path + "` at line " + std::to_string(u.span.start.line);
      if (!text) continue;
      auto def = definition_of(u.path, *text);
      std::string fields;
      if (def)
        for (const Member& m : def->members)
          if (m.span.start_byte != def->name_span.start_byte) fields += (fields.empty() ? "" : ", ") + ("`" + m.name + "`");
      if (!fields.empty()) md += "\n\nfields: " + fields;
    }
    const TextLines lines(at->text, encoding);
    return Answer{{{"contents", {{"kind", "markdown"}, {"value", md}}},
                   {"range", range_json(lines.position(sym->span.start_byte), lines.position(sym->span.end_byte))}}};
  }

  Answer document_symbols(const json& params) {
    const json* td = member(params, "textDocument");
    auto uri = td ? string_member(*td, "uri") : std::nullopt;
    auto path = uri ? path_of(*uri) : std::nullopt;
    if (!path) return bad_params("textDocument");
    auto text = text_of(*ws, *path);
    auto def = text ? definition_of(*path, *text) : std::nullopt;
    if (!def || !def->has_name) return Answer{json::array()};
    TextLines lines(*text, encoding);
    auto range_of = [&](const Span& s) { return range_json(lines.position(s.start_byte), lines.position(s.end_byte)); };
    json children = json::array();
    for (const Member& m : def->members)
      if (m.span.start_byte != def->name_span.start_byte)
        children.push_back({{"name", m.name}, {"kind", 8}, {"range", range_of(m.span)}, {"selectionRange", range_of(m.span)}});
    json top = {{"name", def->name},
                {"detail", def->kind},
                {"kind", 5},
                {"range", range_json(LinePos{}, lines.position(text->size()))},
                {"selectionRange", range_of(def->name_span)},
                {"children", std::move(children)}};
    return Answer{json::array({std::move(top)})};
  }

  // --- rename ---

  std::optional<std::string> not_renamable(const Symbol& s) const {
    const Kind* k = ws->kinds.by_name(s.kind);
    if (!k) return "unknown kind '" + s.kind + "'";
    if (k->never_read || k->name_from_filename) return "a " + k->name + " is named by its file; rename the file by hand";
    return std::nullopt;
  }

  Answer prepare_rename(const json& params) {
    auto at = place_of(params);
    if (!at) return bad_params("textDocument and position");
    auto sym = symbol_at(*at);
    if (!sym) return Answer{nullptr};
    if (auto why = not_renamable(sym->symbol)) return fail(kRequestFailed, *why);
    TextLines lines(at->text, encoding);
    std::string word = sym->symbol.member.empty() ? sym->symbol.name : sym->symbol.member;
    return Answer{{{"range", range_json(lines.position(sym->span.start_byte), lines.position(sym->span.end_byte))},
                   {"placeholder", word}}};
  }

  Answer rename(const json& params) {
    auto at = place_of(params);
    auto new_name = string_member(params, "newName");
    if (!at || !new_name) return bad_params("textDocument, position and newName");
    auto sym = symbol_at(*at);
    if (!sym) return fail(kRequestFailed, "no definition or reference to rename here");
    if (auto why = not_renamable(sym->symbol)) return fail(kRequestFailed, *why);
    const Symbol& s = sym->symbol;
    RenameRequest request = s.member.empty() ? RenameRequest{s.kind, s.name, *new_name}
                                             : RenameRequest{"field", s.name + "." + s.member, *new_name};
    Buffers bufs = buffers();
    auto view = overlay();
    if (!view) return fail(kRequestFailed, view.error().message);
    auto plan = plan_rename(**view, request, known.get(), &bufs);
    if (!plan) return fail(kRequestFailed, plan.error().message);
    json changes = json::object();
    for (const FileRename& f : plan->files) {
      TextLines lines(f.before, encoding);
      json edits = json::array();
      for (const TextEdit& e : f.edits)
        edits.push_back({{"range", range_json(lines.position(e.span.start_byte), lines.position(e.span.end_byte))},
                         {"newText", e.text}});
      changes[uri_of(f.path)] = std::move(edits);
    }
    return Answer{{{"changes", std::move(changes)}}};
  }

  // --- completion ---

  // Names of every definition of `kind` in the view with the buffers: of
  // the unchanged files, from the base's index when there is one; of the
  // changed ones (the buffers among them), from their bytes.
  std::vector<std::string> names_of(const Kind& kind) {
    if (!known) return listed_names(kind);
    std::set<std::string> out;
    known->names(kind, [&](std::string_view name, std::string_view path) {
      const ViewEntry* e = ws->view.find(path);
      if (!e || e->status == ChangeStatus::unchanged) out.emplace(name);
    });
    for (const ViewEntry& e : ws->view.entries()) {
      if (e.status == ChangeStatus::deleted || ws->kinds.route(e.path) != &kind) continue;
      if (kind.name_from_filename) {  // a secret: named by its file, never opened
        out.insert(e.path.substr(e.path.rfind('/') + 1));
        continue;
      }
      auto text = text_of(*ws, e.path);
      auto def = text ? definition_of(e.path, *text) : std::nullopt;
      if (def && def->has_name) out.insert(def->name);
    }
    return std::vector<std::string>(out.begin(), out.end());
  }

  // names_of without an index: every definition of the kind listed.
  std::vector<std::string> listed_names(const Kind& kind) {
    auto whole = whole_view(*ws);
    if (!whole) return {};
    // The whole view for the listing, the changes-only one put back after.
    View changes = std::move(ws->view);
    ws->view = std::move(*whole);
    ws->view_spec.changes_only = false;
    Result<Listing> listing = make_error(Errc::invalid, "");
    if (auto with = with_buffers(*ws, buffers())) {
      ws->view = std::move(*with);
      ListOptions lo;
      lo.kinds = {kind.name};
      lo.want_names = true;
      listing = list_view(*ws, lo);
    }
    ws->view = std::move(changes);
    ws->view_spec.changes_only = true;
    std::vector<std::string> out;
    if (!listing) return out;
    for (const ListedEntry& e : listing->entries)
      if (!e.name.empty() && e.entry->status != ChangeStatus::deleted) out.push_back(e.name);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  std::vector<std::string> fields_of(const Workspace& view, const Kind& kind, const std::string& name) const {
    Buffers bufs = buffers();
    auto uses = find_symbol_uses(view, Symbol{kind.name, name, ""}, known.get(), &bufs, true);
    std::vector<std::string> out;
    if (!uses || uses->empty()) return out;
    auto text = text_of(view, (*uses)[0].path);
    auto def = text ? definition_of((*uses)[0].path, *text) : std::nullopt;
    if (def)
      for (const Member& m : def->members)
        if (m.span.start_byte != def->name_span.start_byte) out.push_back(m.name);
    for (const std::string& m : kind.implicit_members) out.push_back(m);
    return out;
  }

  static json name_items(const std::vector<std::string>& names, const Kind& kind) {
    json items = json::array();
    for (const std::string& n : names) items.push_back({{"label", n}, {"kind", 7}, {"detail", kind.name}});
    return items;
  }

  // Inside a JSON reference value ("tools": ["Lo|"]): the names of its kind.
  std::optional<Answer> reference_completion(const Place& at) {
    auto def = definition_of(at.path, at.text);
    if (!def) return std::nullopt;
    for (const Reference& r : def->refs) {
      if (r.origin != RefOrigin::json || at.offset < r.span.start_byte || at.offset > r.span.end_byte) continue;
      const Kind* kind = ws->kinds.by_name(r.target_kind);
      if (!kind || !r.member.empty()) return Answer{json::array()};
      auto view = overlay();
      if (!view) return fail(kRequestFailed, view.error().message);
      return Answer{name_items(names_of(*kind), *kind)};
    }
    return std::nullopt;
  }

  // The lines of `head`, each without its line end.
  static std::vector<std::string_view> lines_of(std::string_view head) {
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < head.size();) {
      std::size_t nl = std::min(head.find('\n', i), head.size());
      std::string_view line = head.substr(i, nl - i);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      out.push_back(line);
      i = nl + 1;
    }
    return out;
  }

  // Whether the cursor is where a header key goes: a line of the C# header
  // ("// na|") or of an open front matter ("na|"), before any ':'.
  static bool at_header_key(const Kind& kind, std::string_view text, std::size_t offset) {
    std::size_t line_start = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::string_view before = text.substr(line_start, offset - line_start);
    if (line_start == 0 && before.substr(0, 3) == "\xEF\xBB\xBF") before.remove_prefix(3);
    if (before.find(':') != std::string_view::npos) return false;
    std::string_view head = text.substr(0, line_start);
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
    std::vector<std::string_view> lines = lines_of(head);
    if (kind.format == Format::csharp)
      return before.substr(0, 2) == "//" &&
             std::all_of(lines.begin(), lines.end(), [](std::string_view l) { return l.substr(0, 2) == "//"; });
    if (kind.format != Format::markdown || lines.empty() || lines[0] != "---") return false;
    return std::none_of(lines.begin() + 1, lines.end(), [](std::string_view l) { return l == "---"; });
  }

  std::optional<Answer> header_completion(const Place& at) const {
    const Kind* kind = ws->kinds.route(at.path);
    if (!kind || kind->never_read || !at_header_key(*kind, at.text, at.offset)) return std::nullopt;
    json items = json::array();
    if (const json* properties = member(kind->schema, "properties"); properties && properties->is_object())
      for (const auto& [key, value] : properties->items())
        items.push_back({{"label", key}, {"kind", 10}, {"insertText", key + ": "}, {"detail", kind->name + " header"}});
    return Answer{std::move(items)};
  }

  Answer completion(const json& params) {
    auto at = place_of(params);
    if (!at) return bad_params("textDocument and position");
    if (auto a = reference_completion(*at)) return std::move(*a);
    if (auto a = header_completion(*at)) return std::move(*a);
    // The chain before the cursor: `Agents.Tr`, `N.Ticket.St`.
    std::size_t start = at->offset;
    auto chain_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '@'; };
    while (start > 0 && chain_char(at->text[start - 1])) --start;
    std::string chain = at->text.substr(start, at->offset - start);
    std::vector<std::string> parts;
    for (std::size_t i = 0, j; i <= chain.size(); i = j + 1) {
      j = chain.find('.', i);
      if (j == std::string::npos) j = chain.size();
      parts.push_back(chain.substr(i, j - i));
    }
    if (parts.size() < 2 || parts.size() > 3) return Answer{json::array()};
    const Kind* kind = ws->kinds.by_root(parts[0]);
    if (!kind) return Answer{json::array()};
    auto view = overlay();
    if (!view) return fail(kRequestFailed, view.error().message);
    if (parts.size() == 2) return Answer{name_items(names_of(*kind), *kind)};
    json items = json::array();
    for (const std::string& f : fields_of(**view, *kind, parts[1]))
        items.push_back({{"label", f}, {"kind", 5}, {"detail", "field of " + parts[1]}});
    return Answer{std::move(items)};
  }

  // --- dispatch ---

  Answer request(const std::string& method, const json& params) {
    if (method == "initialize") return initialize(params);
    if (phase == Phase::fresh) return fail(kServerNotInitialized, "the server is not initialized");
    if (phase == Phase::shut_down) return fail(kInvalidRequest, "the server is shut down");
    if (method == "shutdown") {
      phase = Phase::shut_down;
      return Answer{nullptr};
    }
    if (method == "textDocument/definition") return locations(params, true);
    if (method == "textDocument/references") return locations(params, false);
    if (method == "textDocument/hover") return hover(params);
    if (method == "textDocument/documentSymbol") return document_symbols(params);
    if (method == "textDocument/completion") return completion(params);
    if (method == "textDocument/prepareRename") return prepare_rename(params);
    if (method == "textDocument/rename") return rename(params);
    return fail(kMethodNotFound, "unknown method '" + method + "'");
  }

  std::vector<std::string> notify(const std::string& method, const json& params) {
    if (method == "exit") {
      exit_code = phase == Phase::shut_down ? 0 : 1;
      return {};
    }
    if (phase != Phase::running) return {};
    if (method == "textDocument/didOpen") did_open(params);
    else if (method == "textDocument/didChange") did_change(params);
    else if (method == "textDocument/didClose") did_close(params);
    else if (method == "textDocument/didSave" || method == "workspace/didChangeWatchedFiles") return disk_changed();
    return {};
  }

  // One message: its answer, if any, appended to `out`.
  void message(const std::string& text, const std::set<std::string>& cancelled, std::vector<std::string>& out) {
    ws::detail::jsonrpc::Parsed parsed = ws::detail::jsonrpc::parse_message(text);
    if (!parsed.message) {
      out.push_back(dump(parsed.error));
      return;
    }
    const ws::detail::jsonrpc::Message& m = *parsed.message;
    if (!m.method) return;  // a response: the server sends no requests
    if (!m.id) {
      for (std::string& s : notify(*m.method, m.params)) out.push_back(std::move(s));
      return;
    }
    if (cancelled.count(m.id->dump())) {
      out.push_back(dump(error_message(*m.id, kRequestCancelled, "request cancelled")));
      return;
    }
    Answer a = request(*m.method, m.params);
    if (a.code) out.push_back(dump(error_message(*m.id, a.code, a.message)));
    else out.push_back(dump(ws::detail::jsonrpc::result_response(*m.id, std::move(a.result))));
  }

  // The ids that $/cancelRequest notifications among `messages` name.
  static std::set<std::string> cancelled_ids(const std::vector<std::string>& messages) {
    std::set<std::string> out;
    for (const std::string& text : messages) {
      if (text.find("$/cancelRequest") == std::string::npos) continue;
      json m = json::parse(text, nullptr, false);
      if (string_member(m, "method") != "$/cancelRequest") continue;
      if (const json* params = member(m, "params"))
        if (const json* id = member(*params, "id"); id && (id->is_string() || id->is_number_integer()))
          out.insert(id->dump());
    }
    return out;
  }
};

Server::Server(ServerOptions options) : state_(std::make_unique<State>()) { state_->options = std::move(options); }
Server::~Server() = default;

std::vector<std::string> Server::handle(const std::vector<std::string>& messages) {
  std::set<std::string> cancelled = State::cancelled_ids(messages);
  std::vector<std::string> out;
  for (const std::string& text : messages) {
    try {
      state_->message(text, cancelled, out);
    } catch (const std::exception& e) {
      // nlohmann's type errors on a message of unexpected shape land here:
      // the request gets an error, the server goes on.
      out.push_back(dump(error_message(nullptr, kInternalError, std::string("internal error: ") + e.what())));
    }
  }
  return out;
}

std::string Server::frame_error(const Error& error) const {
  return dump(error_message(nullptr, kParseError, error.message));
}

bool Server::pending() const { return state_->pending && state_->phase == State::Phase::running; }

std::vector<std::string> Server::publish() {
  try {
    return state_->publish();
  } catch (const std::exception& e) {
    state_->pending = false;
    return {state_->log(std::string("internal error: ") + e.what())};
  }
}

std::optional<int> Server::exit_code() const { return state_->exit_code; }

}  // namespace ws::lsp
