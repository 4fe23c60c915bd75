#include "libcheck/kinds.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "ascii_case.h"
#include "blob_id.h"
#include "json_values.h"
#include "libcheck/json_output.h"
#include "libcheck/path_policy.h"
#include "schema_check.h"

namespace ws {

namespace fs = std::filesystem;

bool acyclic_self_references(const Kind& kind) {
  return std::any_of(kind.refs.begin(), kind.refs.end(), [](const RefSpec& r) { return r.acyclic; });
}

bool is_valid_id_segment(std::string_view s) {
  // One table lookup a byte (the router asks this of every file's name):
  // 1 for a letter or digit, 2 for '.', '_' and '-', which may not start it.
  static constexpr auto kClass = [] {
    std::array<unsigned char, 256> t{};
    for (int c = 'a'; c <= 'z'; ++c) t[c] = 1;
    for (int c = 'A'; c <= 'Z'; ++c) t[c] = 1;
    for (int c = '0'; c <= '9'; ++c) t[c] = 1;
    t['.'] = t['_'] = t['-'] = 2;
    return t;
  }();
  if (s.empty() || kClass[static_cast<unsigned char>(s.front())] != 1) return false;
  for (char c : s.substr(1))
    if (kClass[static_cast<unsigned char>(c)] == 0) return false;
  return true;
}

const char* format_name(Format f) {
  switch (f) {
    case Format::csharp: return "csharp";
    case Format::json: return "json";
    case Format::markdown: return "markdown";
    case Format::opaque: return "opaque";
  }
  return "json";
}

namespace {

constexpr int kMaxManifestDepth = 64;
constexpr std::uintmax_t kMaxManifestBytes = 1 << 20;

Error invalid(const std::string& source, const std::string& what) {
  return make_error(Errc::invalid, fmt::format("kind manifest '{}': {}", source, what), source);
}

// Manifests from a workspace are input like any other: a 10,000-deep one
// must not reach the recursive schema parser.
int depth_of(const nlohmann::json& root) {
  int deepest = 0;
  std::vector<std::pair<const nlohmann::json*, int>> stack{{&root, 1}};
  while (!stack.empty()) {
    auto [v, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    if (depth > kMaxManifestDepth) break;
    if (v->is_structured())
      for (const auto& child : *v) stack.push_back({&child, depth + 1});
  }
  return deepest;
}

bool is_kind_name(std::string_view s) {
  if (s.empty() || s.front() < 'a' || s.front() > 'z') return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

bool is_header_key(std::string_view s) {
  if (s.empty() || s.front() < 'a' || s.front() > 'z') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// "dir/sub/*.ext" or "dir/*": a folder of one or more plain segments, then
// any file name (with the extension).
bool parse_files(std::string_view files, Kind& kind) {
  std::size_t slash = files.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  std::string_view dir = files.substr(0, slash);
  std::string_view pattern = files.substr(slash + 1);
  std::size_t start = 0;
  for (;;) {
    std::size_t end = dir.find('/', start);
    std::string_view seg = dir.substr(start, end == std::string_view::npos ? end : end - start);
    if (seg.empty() || seg == "." || seg == "..") return false;
    for (char c : seg)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (pattern == "*") {
    kind.extension.clear();
  } else if (pattern.size() > 2 && pattern.substr(0, 2) == "*." && is_valid_id_segment(pattern.substr(2))) {
    kind.extension = std::string(pattern.substr(1));
  } else {
    return false;
  }
  kind.dir = std::string(dir) + "/";
  return true;
}

bool is_reference_pointer(const nlohmann::json& v) {
  return v.is_string() && !v.get_ref<const std::string&>().empty() &&
         detail::is_valid_pointer(v.get_ref<const std::string&>());
}

// The first folder of a "files" pattern ("" when the pattern sits at the root).
std::string_view first_folder(std::string_view files) {
  std::size_t slash = files.find('/');
  return slash == std::string_view::npos ? std::string_view() : files.substr(0, slash);
}

// What a workspace manifest may never do (ws(7), SECRETS): whether a secret
// is read is decided by its path ('.secrets/' never is), so no manifest of
// a workspace can claim that folder or the root above it, or stand in for
// the secret kind. (A kind of its own that is never read only reads less,
// and its base keeps it so: base_kinds.h.) Checked on the raw manifest,
// before anything else, so no other finding can hide this one; whatever
// the spelling.
std::optional<Error> refuse_secret_claims(const std::string& source, const nlohmann::json& m) {
  auto str = [&](const char* key) -> std::string {
    return m.contains(key) && m[key].is_string() ? m[key].get<std::string>() : std::string();
  };
  const std::string kind = str("kind"), files = str("files"), symbol = str("symbol");
  if (kind == "secret")
    return invalid(source, "redefines the built-in secret kind, which a workspace can neither replace nor relax "
                           "(content under '.secrets/' is never read); remove the manifest");
  if (m.contains("files") && m["files"].is_string() && first_folder(files).empty())
    return invalid(source, fmt::format("'files' claims the root folder ('{}'), which holds '.secrets/'; put the "
                                       "kind's files in a folder of their own, such as \"agents/*.json\"", files));
  if (is_secret_folder(first_folder(files)))
    return invalid(source, fmt::format("'files' claims files under '.secrets/' ('{}'), which only the built-in "
                                       "secret kind holds and nothing reads; choose another folder", files));
  if (detail::iequals_ascii(symbol, "Secrets"))
    return invalid(source, fmt::format("'symbol' takes the root '{}' of the built-in secret kind; choose another "
                                       "root", symbol));
  return std::nullopt;
}

// The manifest's JSON, an object nesting no deeper than the limit.
Result<nlohmann::json> manifest_json(const std::string& source, std::string_view text) {
  nlohmann::json m;
  try {
    m = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return invalid(source, fmt::format("not valid JSON (at byte {})", e.byte));
  } catch (const nlohmann::json::exception&) {
    // out_of_range 406: a number beyond double range, such as 1E400.
    return invalid(source, "not valid JSON (a number out of range)");
  }
  if (!m.is_object()) return invalid(source, "a manifest is a JSON object");
  if (depth_of(m) > kMaxManifestDepth)
    return invalid(source, fmt::format("nests deeper than {} levels", kMaxManifestDepth));
  return m;
}

// Every key known, the required ones there.
std::optional<Error> check_keys(const std::string& source, nlohmann::json& m) {
  static const std::set<std::string> kKeys{"kind",    "files",   "format", "symbol",     "name",
                                           "references", "members", "scope", "never_read", "schema"};
  for (const auto& [key, value] : m.items())
    if (!kKeys.count(key)) return invalid(source, fmt::format("unknown key '{}'", key));
  for (const char* key : {"kind", "files", "format"})
    if (!m.contains(key)) return invalid(source, fmt::format("missing required key '{}'", key));
  return std::nullopt;
}

// "kind", "files", "format" and "symbol".
std::optional<Error> read_identity(const std::string& source, nlohmann::json& m, Kind& kind) {
  if (!m["kind"].is_string() || !is_kind_name(m["kind"].get<std::string>()))
    return invalid(source, "'kind' must be a lower-case name such as \"agent\"");
  kind.name = m["kind"].get<std::string>();

  if (!m["files"].is_string() || !parse_files(m["files"].get<std::string>(), kind))
    return invalid(source, "'files' must be a folder and a file pattern, such as \"agents/*.json\" or \"notes/*\"");

  static const std::map<std::string, Format> kFormats{
      {"json", Format::json}, {"csharp", Format::csharp}, {"markdown", Format::markdown}, {"opaque", Format::opaque}};
  auto format = m["format"].is_string() ? kFormats.find(m["format"].get<std::string>()) : kFormats.end();
  if (format == kFormats.end()) return invalid(source, "'format' must be one of json, csharp, markdown, opaque");
  kind.format = format->second;

  if (m.contains("symbol")) {
    const auto& symbol = m["symbol"];
    if (!symbol.is_string() || (!symbol.get<std::string>().empty() && !is_valid_symbol_name(symbol.get<std::string>())))
      return invalid(source, "'symbol' must be a C# identifier (or \"\" for none)");
    kind.symbol_root = symbol.get<std::string>();
  }
  return std::nullopt;
}

// "name": the file name, or a JSON pointer (a header key for C#).
std::optional<Error> read_name(const std::string& source, nlohmann::json& m, Kind& kind) {
  std::string name = kind.format == Format::opaque ? "filename" : "/name";
  if (m.contains("name")) {
    if (!m["name"].is_string()) return invalid(source, "'name' must be a string");
    name = m["name"].get<std::string>();
  }
  if (name == "filename") {
    kind.name_from_filename = true;
  } else if (kind.format == Format::opaque) {
    return invalid(source, "an opaque kind is never read, so its 'name' must be \"filename\"");
  } else if (name.empty() || !detail::is_valid_pointer(name) || name.find('*') != std::string::npos) {
    return invalid(source, "'name' must be a JSON pointer such as \"/name\", or \"filename\"");
  } else if (kind.format == Format::csharp && (name.find('/', 1) != std::string::npos || !is_header_key(name.substr(1)))) {
    return invalid(source, "'name' of a csharp kind must be a header key such as \"/name\"");
  } else {
    kind.name_pointer = name;
  }
  return std::nullopt;
}

// One entry of "references".
std::optional<Error> read_reference(const std::string& source, const nlohmann::json& r, Kind& kind) {
  if (!r.is_object()) return invalid(source, "each reference must be an object");
  for (const auto& [key, value] : r.items())
    if (key != "at" && key != "kind" && key != "member_of" && key != "acyclic")
      return invalid(source, fmt::format("unknown key '{}' in a reference", key));
  if (!r.contains("at") || !is_reference_pointer(r["at"]))
    return invalid(source, "a reference needs 'at', a JSON pointer such as \"/tools/*\"");
  if (!r.contains("kind") || !r["kind"].is_string())
    return invalid(source, "a reference needs 'kind', the kind it names");
  RefSpec spec{r["at"].get<std::string>(), r["kind"].get<std::string>(), ""};
  if (r.contains("member_of")) {
    if (!is_reference_pointer(r["member_of"]) || r["member_of"].get<std::string>().find('*') != std::string::npos)
      return invalid(source, "'member_of' must be a JSON pointer without '*', such as \"/node\"");
    spec.member_of = r["member_of"].get<std::string>();
  }
  if (r.contains("acyclic")) {
    if (!r["acyclic"].is_boolean() || (r["acyclic"].get<bool>() && (spec.target_kind != kind.name || !spec.member_of.empty())))
      return invalid(source, "'acyclic' must be a boolean, true only on a reference of the kind to itself");
    spec.acyclic = r["acyclic"].get<bool>();
  }
  kind.refs.push_back(std::move(spec));
  return std::nullopt;
}

// "references", "members" and "scope": what a definition names and declares.
std::optional<Error> read_symbols(const std::string& source, nlohmann::json& m, Kind& kind) {
  if (m.contains("references")) {
    if (!m["references"].is_array()) return invalid(source, "'references' must be an array");
    for (const auto& r : m["references"])
      if (auto bad = read_reference(source, r, kind)) return bad;
    // The compile tells an include from another reference by its kind alone.
    for (const RefSpec& r : kind.refs)
      if (r.target_kind == kind.name && r.member_of.empty() && r.acyclic != acyclic_self_references(kind))
        return invalid(source, "'acyclic' must be the same on every reference of the kind to itself");
  }

  if (m.contains("members")) {
    const auto& members = m["members"];
    if (!members.is_object() || !members.contains("at") || !is_reference_pointer(members["at"]))
      return invalid(source, "'members' must be an object with 'at', a JSON pointer such as \"/fields/*/name\"");
    for (const auto& [key, value] : members.items())
      if (key != "at" && key != "implicit") return invalid(source, fmt::format("unknown key '{}' in 'members'", key));
    kind.member_pointer = members["at"].get<std::string>();
    if (members.contains("implicit")) {
      if (!members["implicit"].is_array()) return invalid(source, "'members.implicit' must be an array of names");
      for (const auto& name : members["implicit"]) {
        if (!name.is_string() || !is_valid_symbol_name(name.get<std::string>()))
          return invalid(source, "'members.implicit' must hold C# identifiers");
        kind.implicit_members.push_back(name.get<std::string>());
      }
    }
  }

  if (m.contains("scope")) {
    if (!m["scope"].is_array()) return invalid(source, "'scope' must be an array of symbol roots");
    for (const auto& root : m["scope"]) {
      if (!root.is_string() || !is_valid_symbol_name(root.get<std::string>()))
        return invalid(source, "'scope' must hold symbol roots such as \"Agents\"");
      kind.scope.push_back(root.get<std::string>());
    }
  }
  return std::nullopt;
}

// "never_read", which only an opaque kind is (and always is).
std::optional<Error> read_never_read(const std::string& source, nlohmann::json& m, Kind& kind) {
  if (m.contains("never_read")) {
    if (!m["never_read"].is_boolean()) return invalid(source, "'never_read' must be true or false");
    kind.never_read = m["never_read"].get<bool>();
  }
  if (kind.format == Format::opaque) kind.never_read = true;
  if (kind.never_read && kind.format != Format::opaque)
    return invalid(source, "a kind that is never read must have format \"opaque\"");
  if (kind.format == Format::opaque && (!kind.refs.empty() || !kind.member_pointer.empty()))
    return invalid(source, "an opaque kind is never read, so it can have no references or members");
  return std::nullopt;
}

// `check_schema` false: the pack was validated before (see from_texts).
// `workspace`: a manifest of the workspace (.ws/kinds), not of the default
// pack, so refuse_secret_claims applies.
Result<Kind> parse_manifest(const std::string& source, std::string_view text, bool check_schema, bool workspace) {
  auto json = manifest_json(source, text);
  if (!json) return json.error();
  // Not const: the steps look keys up as parse_manifest always did, through
  // the non-const operator[], which every manifest of every tool run pays.
  nlohmann::json& m = *json;
  if (workspace)
    if (auto refused = refuse_secret_claims(source, m)) return *refused;
  if (auto bad = check_keys(source, m)) return *bad;

  Kind kind;
  kind.source = source;
  for (auto* step : {read_identity, read_name, read_symbols, read_never_read})
    if (auto bad = step(source, m, kind)) return *bad;

  if (m.contains("schema")) {
    kind.schema = m["schema"];
    if (check_schema)
      if (auto problem = detail::schema_problem(kind.schema)) return invalid(source, "invalid schema: " + *problem);
  }
  return kind;
}

// The default pack's secret kind is the one kind that holds '.secrets/' and
// is never read; a pack (WS_KINDS_DIR) that spells it otherwise, or gives
// its folder, name or root to another kind, is refused.
Status check_builtin_secret(const std::vector<Kind>& defaults) {
  for (const Kind& k : defaults) {
    bool claims = k.name == "secret" || is_secret_folder(first_folder(k.dir)) ||
                  detail::iequals_ascii(k.symbol_root, "Secrets");
    if (!claims) continue;
    bool exact = k.name == "secret" && k.dir == ".secrets/" && k.extension.empty() && k.format == Format::opaque &&
                 k.never_read && k.name_from_filename && k.symbol_root == "Secrets";
    if (!exact)
      return invalid(k.source, "the secret kind must be {\"kind\": \"secret\", \"files\": \".secrets/*\", "
                               "\"format\": \"opaque\", \"symbol\": \"Secrets\", \"name\": \"filename\"}, "
                               "and no other kind may hold '.secrets/' or its root");
  }
  return Ok{};
}

// Checks that need the whole pack: targets exist, roots and folders are unique.
Status check_pack(const std::vector<Kind>& kinds) {
  auto find = [&](std::string_view name) -> const Kind* {
    for (const Kind& k : kinds)
      if (k.name == name) return &k;
    return nullptr;
  };
  std::set<std::string> roots;
  for (const Kind& k : kinds)
    if (!k.symbol_root.empty()) roots.insert(k.symbol_root);
  for (const Kind& k : kinds) {
    for (const RefSpec& r : k.refs) {
      const Kind* target = find(r.target_kind);
      if (!target) return invalid(k.source, fmt::format("reference to unknown kind '{}'", r.target_kind));
      if (!r.member_of.empty() && target->member_pointer.empty())
        return invalid(k.source, fmt::format("'member_of' names members of kind '{}', which has none", r.target_kind));
    }
    for (const std::string& root : k.scope)
      if (!roots.count(root)) return invalid(k.source, fmt::format("scope names '{}', which no kind defines", root));
    for (const Kind& other : kinds) {
      if (&other == &k) break;  // each pair once
      if (!k.symbol_root.empty() && k.symbol_root == other.symbol_root)
        return invalid(k.source, fmt::format("symbol root '{}' is also defined by kind '{}'", k.symbol_root, other.name));
      if (k.dir == other.dir && (k.extension == other.extension || k.extension.empty() || other.extension.empty()))
        return invalid(k.source, fmt::format("its files overlap those of kind '{}'", other.name));
    }
  }
  return Ok{};
}

using Texts = std::map<std::string, std::string>;

Result<std::vector<Kind>> parse_all(const Texts& texts, const std::string& prefix, bool check_schemas,
                                    bool workspace) {
  std::vector<Kind> out;
  for (const auto& [name, text] : texts) {
    auto kind = parse_manifest(prefix + name, text, check_schemas, workspace);
    if (!kind) return kind.error();
    out.push_back(std::move(*kind));
  }
  return out;
}

}  // namespace

std::string KindPack::digest_of(const Texts& defaults, const Texts& overlay) {
  std::string all;
  for (const auto* texts : {&defaults, &overlay}) {
    all += texts == &defaults ? std::string_view("defaults", 9) : std::string_view("overlay", 8);
    for (const auto& [name, text] : *texts) {
      all.append(name).push_back('\0');
      all.append(text).push_back('\0');
    }
  }
  return detail::blob_id_hex(all);
}

namespace {

Result<Texts> read_manifests(const std::string& dir, bool required) {
  Texts out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    if (!required && (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)) return out;
    return make_error(Errc::environment, fmt::format("cannot read kind manifests in '{}': {}", dir, ec.message()), dir);
  }
  for (const fs::directory_entry& entry : it) {
    const fs::path& p = entry.path();
    if (p.extension() != ".json") continue;
    // A manifest must be a plain file: no symlink out of the kinds folder.
    if (!fs::is_regular_file(fs::symlink_status(p, ec)) || ec) continue;
    if (fs::file_size(p, ec) > kMaxManifestBytes || ec)
      return make_error(Errc::invalid, fmt::format("kind manifest '{}' is too large", p.string()), p.string());
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof())
      return make_error(Errc::environment, fmt::format("cannot read kind manifest '{}'", p.string()), p.string());
    out[p.filename().string()] = text.str();
  }
  return out;
}

// The defaults, each overlay kind replacing the default of its name or
// joining the pack, sorted by name; `*_prefix` makes sources readable paths.
Result<std::vector<Kind>> assemble(const Texts& defaults, const Texts& overlay,
                                   const std::string& default_prefix, const std::string& overlay_prefix,
                                   bool check_schemas = true) {
  auto kinds = parse_all(defaults, default_prefix, check_schemas, /*workspace=*/false);
  if (!kinds) return kinds.error();
  if (Status builtin = check_builtin_secret(*kinds); !builtin) return builtin.error();
  for (std::size_t i = 0; i < kinds->size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if ((*kinds)[i].name == (*kinds)[j].name)
        return invalid((*kinds)[i].source, fmt::format("kind '{}' is also defined by '{}'", (*kinds)[i].name,
                                                        (*kinds)[j].source));
  auto extra = parse_all(overlay, overlay_prefix, check_schemas, /*workspace=*/true);
  if (!extra) return extra.error();
  std::set<std::string> overlaid;
  for (Kind& kind : *extra) {
    if (!overlaid.insert(kind.name).second)
      return invalid(kind.source, fmt::format("kind '{}' is defined twice in the overlay", kind.name));
    auto same = std::find_if(kinds->begin(), kinds->end(), [&](const Kind& k) { return k.name == kind.name; });
    if (same != kinds->end())
      *same = std::move(kind);
    else
      kinds->push_back(std::move(kind));
  }
  std::sort(kinds->begin(), kinds->end(), [](const Kind& a, const Kind& b) { return a.name < b.name; });
  if (Status checked = check_pack(*kinds); !checked) return checked.error();
  return kinds;
}

}  // namespace

Result<KindPack> KindPack::from_texts(const std::map<std::string, std::string>& defaults,
                                      const std::map<std::string, std::string>& overlay,
                                      std::string_view validated_digest) {
  std::string digest = digest_of(defaults, overlay);
  auto kinds = assemble(defaults, overlay, "", "", validated_digest.empty() || digest != validated_digest);
  if (!kinds) return kinds.error();
  KindPack pack;
  pack.kinds_ = std::move(*kinds);
  pack.digest_ = std::move(digest);
  pack.find_secret_kind();
  return pack;
}

Result<KindPack> KindPack::load(const std::string& default_dir, const std::string& overlay_dir) {
  auto defaults = read_manifests(default_dir, true);
  if (!defaults) return defaults.error();
  if (defaults->empty())
    return make_error(Errc::environment, fmt::format("no kind manifests in '{}'", default_dir), default_dir);
  Texts overlay;
  if (!overlay_dir.empty()) {
    auto read = read_manifests(overlay_dir, false);
    if (!read) return read.error();
    overlay = std::move(*read);
  }
  auto kinds = assemble(*defaults, overlay, default_dir + "/", overlay_dir + "/");
  if (!kinds) return kinds.error();
  KindPack pack;
  pack.kinds_ = std::move(*kinds);
  pack.digest_ = digest_of(*defaults, overlay);
  pack.find_secret_kind();
  return pack;
}

void KindPack::find_secret_kind() {
  secret_ = -1;
  for (std::size_t i = 0; i < kinds_.size(); ++i)
    if (kinds_[i].name == "secret") secret_ = static_cast<std::ptrdiff_t>(i);
}

const Kind* KindPack::secret_kind() const { return secret_ < 0 ? nullptr : &kinds_[static_cast<std::size_t>(secret_)]; }

const Kind* KindPack::route_secret(std::string_view path) const {
  std::string_view file = path.substr(path.find('/') + 1);
  return is_valid_id_segment(file) ? secret_kind() : nullptr;
}

bool KindPack::accepts(const Kind& k, std::string_view file, bool* misnamed) {
  if (misnamed && !is_valid_utf8(file)) *misnamed = true;
  if (!is_valid_id_segment(file)) return false;  // also refuses deeper folders: '/' is not allowed
  return has_extension(k, file);
}

bool KindPack::has_extension(const Kind& k, std::string_view file) {
  return k.extension.empty() ||
         (file.size() > k.extension.size() && file.substr(file.size() - k.extension.size()) == k.extension);
}

const Kind* KindPack::route(std::string_view path, bool* misnamed) const {
  // Content under '.secrets/', in any spelling, is the built-in secret
  // kind's (a file directly in the folder) or no kind's: no other kind can
  // be handed a secret, whatever the manifests say.
  if (is_secret_path(path)) return route_secret(path);
  // Only the kinds whose folder is the path's own (every path of a
  // workspace asks, so the folder is compared by length first).
  std::size_t slash = path.rfind('/');
  std::size_t dir_size = slash == std::string_view::npos ? 0 : slash + 1;
  for (const Kind& k : kinds_) {
    if (k.dir.size() != dir_size || path.compare(0, dir_size, k.dir) != 0) continue;
    if (accepts(k, path.substr(dir_size), misnamed)) return &k;
  }
  return nullptr;
}

const Kind* KindPack::Router::route(std::string_view path, bool* misnamed) {
  if (is_secret_path(path)) return pack_.route_secret(path);
  // A valid id segment holds no '/' and is valid UTF-8: a path that is the
  // last folder's name then one is a file of that folder, settled by its
  // name's bytes alone (accepts() without the checks that already passed).
  if (have_dir_ && path.size() > dir_.size() && path.compare(0, dir_.size(), dir_) == 0 &&
      is_valid_id_segment(path.substr(dir_.size()))) {
    for (const Kind* k : folder_kinds_)
      if (has_extension(*k, path.substr(dir_.size()))) return k;
    return nullptr;
  }
  std::size_t slash = path.rfind('/');
  std::string_view dir = path.substr(0, slash == std::string_view::npos ? 0 : slash + 1);
  if (!have_dir_ || dir != dir_) {
    dir_.assign(dir);
    have_dir_ = true;
    folder_kinds_.clear();
    for (const Kind& k : pack_.kinds_)
      if (k.dir == dir) folder_kinds_.push_back(&k);
  }
  for (const Kind* k : folder_kinds_)
    if (accepts(*k, path.substr(dir.size()), misnamed)) return k;
  return nullptr;
}

const Kind* KindPack::by_name(std::string_view name) const {
  for (const Kind& k : kinds_)
    if (k.name == name) return &k;
  return nullptr;
}

const Kind* KindPack::by_root(std::string_view symbol_root) const {
  if (symbol_root.empty()) return nullptr;
  for (const Kind& k : kinds_)
    if (k.symbol_root == symbol_root) return &k;
  return nullptr;
}

std::string default_kinds_dir() {
  if (const char* env = std::getenv("WS_KINDS_DIR"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path datadir = WS_INSTALL_DATADIR;
    fs::path installed = (datadir.is_absolute() ? datadir : exe.parent_path().parent_path() / datadir) /
                         "ws" / "schemas" / "kinds";
    if (fs::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  return WS_SOURCE_KINDS_DIR;
}

}  // namespace ws
