// Kinds are data: a manifest per kind (schemas/kinds/<kind>.json) says where
// its files live, how they are read, what name they define and what they
// reference. A workspace adds or overrides kinds with .ws/kinds/*.json.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/result.h"

namespace ws {

enum class Format { csharp, json, markdown, opaque };
const char* format_name(Format f);

// A JSON (or front matter) reference location: a pointer with '*' for every
// array element, and the kind it names. For a member reference (an index's
// fields) `member_of` is the pointer whose value names the owning definition.
struct RefSpec {
  std::string pointer;      // "/tools/*"
  std::string target_kind;  // "ai-tool"
  std::string member_of;    // "/node" for index fields; empty for a plain reference
  // "acyclic": a reference of a kind to itself whose definitions must form
  // no cycle (prompt includes; ws(7), KINDS, WS025).
  bool acyclic = false;
};

struct Kind {
  std::string name;          // "agent"
  std::string dir;           // "agents/" (always ends with '/')
  std::string extension;     // ".json"; empty: any file name (secrets)
  Format format = Format::json;
  std::string symbol_root;   // "Agents"; empty when the kind defines no symbol
  std::string name_pointer;  // "/name" (JSON, front matter, C# header key as "/name")
  bool name_from_filename = false;  // secrets
  std::vector<RefSpec> refs;
  std::string member_pointer;              // "/fields/*/name"
  std::vector<std::string> implicit_members;  // "Type"
  std::vector<std::string> scope;          // roots code may use; empty: none
  bool never_read = false;   // content never opened, listed only on request
  nlohmann::json schema;     // JSON Schema for the JSON / front matter / header object
  std::string source;        // manifest file it came from
};

class KindPack {
 public:
  // Loads every *.json manifest in `default_dir`, then those in `overlay_dir`
  // (a workspace's .ws/kinds), each replacing a default kind of the same name.
  static Result<KindPack> load(const std::string& default_dir,
                               const std::string& overlay_dir = {});
  // Loads from manifest texts (name -> JSON text), for tests and for a
  // workspace's manifests read out of a view. When the texts' digest is
  // `validated_digest`, the digest of a pack this tool version has loaded
  // before, the JSON Schemas are not compiled again just to be checked
  // (they are compiled when a definition is read): a tenth of a warm build
  // of a small workspace. Every other check still runs.
  static Result<KindPack> from_texts(const std::map<std::string, std::string>& defaults,
                                     const std::map<std::string, std::string>& overlay = {},
                                     std::string_view validated_digest = {});

  // The kind whose folder holds `path` with a file name it accepts, or null
  // (unrouted). A path under '.secrets/' (path_policy.h is_secret_path)
  // routes to secret_kind() or to nothing. A file of a kind's folder whose
  // name is not valid UTF-8 routes to nothing and sets `*misnamed`: it is
  // an error whatever "unrouted" says (ws(7), DEFINITIONS), since no kind's
  // pattern can name it and nothing would ever read it.
  const Kind* route(std::string_view path, bool* misnamed = nullptr) const;
  // route() for many paths in path order (a listing of the view): the
  // kinds whose folder is the last path's folder are kept, so each folder's
  // name is compared with the kinds' once, not once a file. Every path's
  // own name (secret folder, id segment, extension) is still checked. Same
  // answers as route(); the pack must outlive it.
  class Router {
   public:
    explicit Router(const KindPack& pack) : pack_(pack) {}
    const Kind* route(std::string_view path, bool* misnamed = nullptr);

   private:
    const KindPack& pack_;
    std::string dir_;
    bool have_dir_ = false;
    std::vector<const Kind*> folder_kinds_;  // kinds whose folder is dir_, in pack order
  };
  // The built-in secret kind of the default pack (ws(7)): never read, and
  // the only kind that holds '.secrets/'; null for a pack without one.
  const Kind* secret_kind() const;
  const Kind* by_name(std::string_view name) const;
  const Kind* by_root(std::string_view symbol_root) const;
  const std::vector<Kind>& kinds() const { return kinds_; }
  // Digest of every manifest's bytes: part of every cache key.
  const std::string& digest() const { return digest_; }
  // The digest a pack of these manifest texts has (loaded or not).
  static std::string digest_of(const std::map<std::string, std::string>& defaults,
                               const std::map<std::string, std::string>& overlay);

 private:
  void find_secret_kind();
  // The secret folder's rule (a file directly under '.secrets/', in any
  // spelling, is the secret kind's; nothing else there is any kind's).
  const Kind* route_secret(std::string_view path) const;
  // Whether kind `k`, whose folder holds the file, reads a file of that name.
  static bool accepts(const Kind& k, std::string_view file, bool* misnamed);
  // Whether `file` has kind `k`'s extension (any name, when it has none).
  static bool has_extension(const Kind& k, std::string_view file);

  std::vector<Kind> kinds_;
  std::string digest_;
  std::ptrdiff_t secret_ = -1;  // index of the secret kind in kinds_
};

// Where the default pack is installed, found relative to the running binary
// ($prefix/share/ws/schemas/kinds), or WS_KINDS_DIR when set.
std::string default_kinds_dir();

// Whether the kind's JSON references to itself (all of them, the manifest
// check makes sure) must form no cycle: the one rule the include-cycle check
// (WS025) asks.
bool acyclic_self_references(const Kind& kind);

// True for `[A-Za-z0-9][A-Za-z0-9._-]*`.
bool is_valid_id_segment(std::string_view s);
// The longest name code can write: C# compilers refuse longer identifiers
// (Roslyn's CS0645, "identifier too long").
inline constexpr std::size_t kMaxNameLength = 512;
// ASCII C# identifier ([A-Za-z_][A-Za-z0-9_]*) of any length.
bool is_ascii_identifier(std::string_view s);
// ASCII C# identifier of at most kMaxNameLength characters that is not a C# keyword.
bool is_valid_symbol_name(std::string_view s);
bool is_csharp_keyword(std::string_view s);

}  // namespace ws
