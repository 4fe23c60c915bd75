// Kind manifests: loading, routing, overlays, refusal of bad manifests, names.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "blob_id.h"
#include "libcheck/kinds.h"

namespace {

std::string kinds_dir() { return std::string(WS_SOURCE_DIR) + "/schemas/kinds"; }

ws::KindPack default_pack() {
  auto pack = ws::KindPack::load(kinds_dir());
  REQUIRE(pack.ok());
  return std::move(pack).value();
}

std::map<std::string, std::string> default_texts() {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kinds_dir())) {
    std::ifstream in(e.path());
    out[e.path().filename().string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

std::string route_name(const ws::KindPack& pack, std::string_view path) {
  const ws::Kind* k = pack.route(path);
  return k ? k->name : "";
}

}  // namespace

TEST_CASE("the default kind pack loads with its twelve kinds", "[kinds]") {
  ws::KindPack pack = default_pack();
  REQUIRE(pack.kinds().size() == 12);
  const ws::Kind* agent = pack.by_name("agent");
  REQUIRE(agent);
  CHECK(agent->dir == "agents/");
  CHECK(agent->extension == ".json");
  CHECK(agent->format == ws::Format::json);
  CHECK(agent->symbol_root == "Agents");
  CHECK(agent->name_pointer == "/name");
  REQUIRE(agent->refs.size() == 4);
  CHECK(agent->refs[1].pointer == "/tools/*");
  CHECK(agent->refs[1].target_kind == "ai-tool");
  CHECK(agent->schema.is_object());

  const ws::Kind* index = pack.by_name("index");
  REQUIRE(index);
  CHECK(index->refs[1].member_of == "/node");
  const ws::Kind* node = pack.by_name("node-type");
  REQUIRE(node);
  CHECK(node->member_pointer == "/fields/*/name");
  CHECK(node->implicit_members == std::vector<std::string>{"Type"});
  const ws::Kind* secret = pack.by_name("secret");
  REQUIRE(secret);
  CHECK(secret->never_read);
  CHECK(secret->name_from_filename);
  CHECK(secret->format == ws::Format::opaque);
  CHECK(secret->extension.empty());
  CHECK(pack.by_name("endpoint")->scope.size() == 11);
  CHECK(std::string(ws::format_name(ws::Format::markdown)) == "markdown");

  CHECK(pack.by_root("Agents") == agent);
  CHECK(pack.by_root("N") == node);
  CHECK(pack.by_root("Secrets") == secret);
  CHECK(pack.by_root("Nope") == nullptr);
  CHECK(pack.by_root("") == nullptr);  // access-grant defines no symbol
  CHECK(pack.by_name("nope") == nullptr);
  CHECK(pack.digest().size() == 40);
}

TEST_CASE("the router answers as route for paths in order", "[kinds]") {
  // Files of a kind's folder, then names it may not take (another
  // extension, a bad id segment, not UTF-8, a deeper folder), other
  // folders, the root and the secrets folder.
  ws::KindPack pack = default_pack();
  std::vector<std::string> paths = {"README.md", "agents", "agents/A.json", "agents/B.json", "agents/B.txt",
                                    "agents/_x.json", "agents/a b.json", "agents/\xff.json", "agents/sub/C.json",
                                    "agents/sub/D.json", "agents/Z.json", "agentsX/A.json", "ai-tools/T.cs",
                                    "ai-tools/T.json", ".secrets/Key", ".secrets/a/b", ".SECRETS/Key", "skills/S.md",
                                    "skills/.md", "skills/S.md.md", "z.json"};
  std::sort(paths.begin(), paths.end());
  ws::KindPack::Router router(pack);
  for (const auto& p : paths) {
    INFO(p);
    bool misnamed = false, router_misnamed = false;
    CHECK(router.route(p, &router_misnamed) == pack.route(p, &misnamed));
    CHECK(router_misnamed == misnamed);
  }
}

TEST_CASE("routing sends each kind's folder to its kind and nothing else", "[kinds]") {
  ws::KindPack pack = default_pack();
  struct Row {
    const char* path;
    const char* kind;  // "" for unrouted
  };
  const Row rows[] = {
      {"agents/AGtriage01.json", "agent"},
      {"ai-tools/TLlookup01.cs", "ai-tool"},
      {"endpoints/EPtriage01.cs", "endpoint"},
      {"prompts/PRtone01.md", "prompt"},
      {"skills/SKsummarize01.md", "skill"},
      {"tasks/TKdigest01.json", "task"},
      {"node-types/NTticket01.json", "node-type"},
      {"edge-types/EDraised01.json", "edge-type"},
      {"indexes/IXopen01.json", "index"},
      {"access/groups/GRsupport01.json", "access-group"},
      {"access/grants/GTsupport01.json", "access-grant"},
      {".secrets/SupportMailbox", "secret"},
      {".secrets/key.v2", "secret"},
      {"agents/a.b-c_d.json", "agent"},
      {"agents/7.json", "agent"},
      // nested folders are not the kind's folder
      {"agents/sub/AG01.json", ""},
      {".secrets/sub/X", ""},
      // every spelling of the secrets folder is the secret kind's
      {".SECRETS/Key", "secret"},
      {".secrets./Key", "secret"},
      {".Secrets /Key", "secret"},
      {"access/AG01.json", ""},
      {"access/groups/sub/G.json", ""},
      // wrong extension
      {"agents/AG01.yaml", ""},
      {"agents/AG01.json.bak", ""},
      {"agents/AG01", ""},
      {"endpoints/EP01.json", ""},
      {"prompts/PR01.txt", ""},
      // bad id segments
      {"agents/.json", ""},
      {"agents/.hidden.json", ""},
      {"agents/-x.json", ""},
      {"agents/a b.json", ""},
      {"agents/_x.json", ""},
      {".secrets/.x", ""},
      {".secrets/", ""},
      {"agents/", ""},
      {"agents", ""},
      // elsewhere
      {"README.md", ""},
      {"docs/agents/AG01.json", ""},
      {"Agents/AG01.json", ""},
      {"", ""},
  };
  for (const Row& row : rows) {
    INFO(row.path);
    CHECK(route_name(pack, row.path) == row.kind);
  }
}

TEST_CASE("an overlay replaces a kind of the same name and adds new ones", "[kinds]") {
  auto defaults = default_texts();
  std::map<std::string, std::string> overlay{
      {"agent.json", R"({"kind": "agent", "files": "bots/*.json", "format": "json", "symbol": "Agents",
                         "schema": {"type": "object"}})"},
      {"runbook.json", R"({"kind": "runbook", "files": "ops/runbooks/*.md", "format": "markdown",
                           "symbol": "Runbooks", "references": [{"at": "/agents/*", "kind": "agent"}]})"},
  };
  auto pack = ws::KindPack::from_texts(defaults, overlay);
  REQUIRE(pack.ok());
  CHECK(pack->kinds().size() == 13);
  CHECK(route_name(*pack, "bots/x.json") == "agent");
  CHECK(route_name(*pack, "agents/x.json").empty());
  CHECK(pack->by_name("agent")->refs.empty());
  CHECK(pack->by_name("agent")->source == "agent.json");
  CHECK(route_name(*pack, "ops/runbooks/restart.md") == "runbook");
  CHECK(pack->by_root("Runbooks")->name == "runbook");
  CHECK(pack->by_name("runbook")->name_pointer == "/name");

  auto plain = ws::KindPack::from_texts(defaults);
  REQUIRE(plain.ok());
  CHECK(plain->digest() != pack->digest());
  auto again = ws::KindPack::from_texts(defaults);
  CHECK(again->digest() == plain->digest());
}

TEST_CASE("load reads an overlay folder and tolerates a missing one", "[kinds]") {
  auto dir = std::filesystem::temp_directory_path() / ("ws-kinds-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "skill.json") << R"({"kind": "skill", "files": "playbooks/*.md", "format": "markdown",
                                             "symbol": "Skills"})";
    std::ofstream(dir / "notes.txt") << "not a manifest";
  }
  auto pack = ws::KindPack::load(kinds_dir(), dir.string());
  REQUIRE(pack.ok());
  CHECK(route_name(*pack, "playbooks/p.md") == "skill");
  CHECK(pack->by_name("skill")->source == (dir / "skill.json").string());
  auto missing = ws::KindPack::load(kinds_dir(), (dir / "absent").string());
  CHECK(missing.ok());
  {
    std::ofstream(dir / "broken.json") << "{ not json";
  }
  auto broken = ws::KindPack::load(kinds_dir(), dir.string());
  REQUIRE_FALSE(broken.ok());
  CHECK(broken.error().code == ws::Errc::invalid);
  CHECK_THAT(broken.error().message, Catch::Contains("broken.json") && Catch::Contains("not valid JSON"));
  std::filesystem::remove_all(dir);

  auto none = ws::KindPack::load((dir / "nowhere").string());
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().code == ws::Errc::environment);
}

TEST_CASE("invalid manifests are refused with a message naming the manifest", "[kinds]") {
  auto defaults = default_texts();
  struct Row {
    const char* text;
    const char* expect;
  };
  const Row rows[] = {
      {R"([1])", "a manifest is a JSON object"},
      {R"({"files": "x/*.json", "format": "json"})", "missing required key 'kind'"},
      {R"({"kind": "x", "format": "json"})", "missing required key 'files'"},
      {R"({"kind": "x", "files": "x/*.json"})", "missing required key 'format'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "colour": 1})", "unknown key 'colour'"},
      {R"({"kind": "X Y", "files": "x/*.json", "format": "json"})", "'kind'"},
      {R"({"kind": "x", "files": "*.json", "format": "json"})", "'files'"},
      {R"({"kind": "x", "files": "x/*.json/", "format": "json"})", "'files'"},
      {R"({"kind": "x", "files": "../x/*.json", "format": "json"})", "'files'"},
      {R"({"kind": "x", "files": "x/y*.json", "format": "json"})", "'files'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "yaml"})", "'format'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "symbol": "class"})", "'symbol'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "name": "name"})", "'name'"},
      {R"({"kind": "x", "files": "x/*.cs", "format": "csharp", "name": "/a/b"})", "header key"},
      {R"({"kind": "x", "files": "x/*", "format": "opaque", "name": "/name"})", "\"filename\""},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "references": [{"at": "/a"}]})", "'kind'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "references": [{"at": "a", "kind": "agent"}]})", "'at'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "references": [{"at": "/a", "kind": "nope"}]})",
       "unknown kind 'nope'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "references": [{"at": "/a", "kind": "agent", "member_of": "/b"}]})",
       "has none"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "scope": ["Nowhere"]})", "'Nowhere'"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "symbol": "Agents"})", "symbol root 'Agents'"},
      {R"({"kind": "x", "files": "agents/*.json", "format": "json"})", "overlap"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "schema": {"type": "object", "properties": {"a": {"pattern": "("}}}})",
       "invalid schema"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "schema": 5})", "invalid schema"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "never_read": true})", "opaque"},
      {R"({"kind": "x", "files": "x/*.json", "format": "json", "members": {"at": "/f/*", "implicit": ["int"]}})",
       "implicit"},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    auto pack = ws::KindPack::from_texts(defaults, {{"bad.json", row.text}});
    REQUIRE_FALSE(pack.ok());
    CHECK(pack.error().code == ws::Errc::invalid);
    CHECK_THAT(pack.error().message, Catch::StartsWith("kind manifest 'bad.json': "));
    CHECK_THAT(pack.error().message, Catch::Contains(row.expect));
  }

  std::string deep = std::string(10000, '[') + std::string(10000, ']');
  auto pack = ws::KindPack::from_texts(
      defaults, {{"deep.json", R"({"kind": "x", "files": "x/*.json", "format": "json", "schema": )" + deep + "}"}});
  REQUIRE_FALSE(pack.ok());
  CHECK_THAT(pack.error().message, Catch::Contains("deeper"));

  auto twice = defaults;
  twice["agent2.json"] = defaults["agent.json"];
  auto dup = ws::KindPack::from_texts(twice);
  REQUIRE_FALSE(dup.ok());
  CHECK_THAT(dup.error().message, Catch::Contains("also defined by"));
}

TEST_CASE("a validated digest skips compiling the schemas of that exact pack only", "[kinds]") {
  auto defaults = default_texts();
  const std::map<std::string, std::string> bad{
      {"bad.json", R"({"kind": "x", "files": "x/*.json", "format": "json", "schema": {"properties": {"a": {"pattern": "("}}}})"}};
  auto refused = ws::KindPack::from_texts(defaults, bad);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::Contains("invalid schema"));
  // The digest of another pack (the defaults alone) vouches for nothing here.
  auto plain = ws::KindPack::from_texts(defaults);
  REQUIRE(plain.ok());
  auto still_refused = ws::KindPack::from_texts(defaults, bad, plain->digest());
  REQUIRE_FALSE(still_refused.ok());
  CHECK_THAT(still_refused.error().message, Catch::Contains("invalid schema"));
  // The pack's own digest: its schema is taken as checked before, so even
  // this invalid one is not compiled again (what a cache file written by a
  // build of that pack vouches for; such a build could not have happened).
  auto vouched = ws::KindPack::from_texts(defaults, bad, ws::KindPack::digest_of(defaults, bad));
  REQUIRE(vouched.ok());
  CHECK(vouched->digest() == ws::KindPack::digest_of(defaults, bad));
  // A valid pack with its own digest loads as before, and every other rule still holds.
  auto again = ws::KindPack::from_texts(defaults, {}, plain->digest());
  REQUIRE(again.ok());
  CHECK(again->digest() == plain->digest());
  CHECK(again->kinds().size() == plain->kinds().size());
  auto broken_json = ws::KindPack::from_texts(defaults, {{"b.json", "{"}}, plain->digest());
  REQUIRE_FALSE(broken_json.ok());
  CHECK_THAT(broken_json.error().message, Catch::Contains("not valid JSON"));
}

TEST_CASE("default_kinds_dir honours WS_KINDS_DIR and falls back to the source tree", "[kinds]") {
  ::setenv("WS_KINDS_DIR", "/somewhere/kinds", 1);
  CHECK(ws::default_kinds_dir() == "/somewhere/kinds");
  ::unsetenv("WS_KINDS_DIR");
  std::string dir = ws::default_kinds_dir();
  CHECK(std::filesystem::exists(std::filesystem::path(dir) / "agent.json"));
}

TEST_CASE("symbol names are C# identifiers that are not keywords", "[kinds]") {
  for (const char* ok : {"Triage", "_x", "a1", "LookupCustomer", "var", "async", "dynamic", "Class", "N"}) {
    INFO(ok);
    CHECK(ws::is_valid_symbol_name(ok));
  }
  for (const char* bad : {"", "class", "int", "null", "true", "while", "1abc", "a-b", "a.b", "a b", "Ä", "über"}) {
    INFO(bad);
    CHECK_FALSE(ws::is_valid_symbol_name(bad));
  }
  CHECK(ws::is_csharp_keyword("abstract"));
  CHECK(ws::is_csharp_keyword("volatile"));
  CHECK(ws::is_csharp_keyword("stackalloc"));
  CHECK_FALSE(ws::is_csharp_keyword("var"));
  CHECK_FALSE(ws::is_csharp_keyword("Class"));

  for (const char* ok : {"a", "A0", "a.b", "a-b_c", "7", "x.json"}) CHECK(ws::is_valid_id_segment(ok));
  for (const char* bad : {"", ".a", "-a", "_a", "a/b", "a b", "a\\b", "é"}) CHECK_FALSE(ws::is_valid_id_segment(bad));
}

TEST_CASE("symbol names are at most 512 characters, as C# compilers allow", "[kinds]") {
  // Roslyn refuses a longer identifier (CS0645), so code could not name it.
  struct Case {
    std::string name;
    bool valid;
  };
  const std::vector<Case> cases = {
      {std::string(1, 'A'), true},
      {std::string(511, 'A'), true},
      {std::string(512, 'A'), true},
      {"_" + std::string(511, '9'), true},
      {std::string(513, 'A'), false},
      {"_" + std::string(512, '9'), false},
      {std::string(10000, 'A'), false},
  };
  for (const Case& c : cases) {
    INFO(c.name.size() << " characters");
    CHECK(ws::is_valid_symbol_name(c.name) == c.valid);
    CHECK(ws::is_ascii_identifier(c.name));  // the length is the only fault
  }
  CHECK(ws::kMaxNameLength == 512);
}

TEST_CASE("no workspace manifest reaches .secrets/ or stands in for the secret kind", "[kinds][secrets]") {
  auto defaults = default_texts();
  struct Row {
    const char* text;
    const char* expect;
  };
  const Row rows[] = {
      // the secret kind redefined, in each format, or even as it is
      {R"({"kind": "secret", "files": ".secrets/*", "format": "json", "symbol": "Secrets"})", "redefines the built-in secret kind"},
      {R"({"kind": "secret", "files": ".secrets/*", "format": "csharp", "symbol": "Secrets"})", "redefines"},
      {R"({"kind": "secret", "files": ".secrets/*", "format": "markdown", "symbol": "Secrets"})", "redefines"},
      {R"({"kind": "secret", "files": ".secrets/*", "format": "opaque", "symbol": "Secrets", "name": "filename", "never_read": true})", "redefines"},
      {R"({"kind": "secret", "files": "vault/*.json", "format": "json"})", "redefines"},
      // another kind on the folder, in any spelling
      {R"({"kind": "vault", "files": ".secrets/*", "format": "json"})", "claims files under '.secrets/' ('.secrets/*')"},
      {R"({"kind": "vault", "files": ".SECRETS/*.json", "format": "json"})", "claims files under '.secrets/'"},
      {R"({"kind": "vault", "files": ".secrets./*", "format": "markdown"})", "claims files under '.secrets/'"},
      {R"({"kind": "vault", "files": ".Secrets/*.cs", "format": "csharp"})", "claims files under '.secrets/'"},
      {R"({"kind": "vault", "files": ".secrets/keys/*.json", "format": "json"})", "claims files under '.secrets/'"},
      // the root, which holds .secrets/
      {R"({"kind": "vault", "files": "*", "format": "json"})", "'files' claims the root folder"},
      {R"({"kind": "vault", "files": "*.json", "format": "json"})", "'files' claims the root folder"},
      // its symbol root
      {R"({"kind": "vault", "files": "vault/*.json", "format": "json", "symbol": "Secrets"})", "takes the root 'Secrets'"},
      {R"({"kind": "vault", "files": "vault/*.json", "format": "json", "symbol": "secrets"})", "takes the root 'secrets'"},
      // never read, but on the secrets
      {R"({"kind": "vault", "files": ".secrets/*", "format": "opaque", "name": "filename"})", "claims files under '.secrets/'"},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    auto pack = ws::KindPack::from_texts(defaults, {{".ws/kinds/x.json", row.text}});
    REQUIRE_FALSE(pack.ok());
    CHECK(pack.error().code == ws::Errc::invalid);
    CHECK_THAT(pack.error().message, Catch::StartsWith("kind manifest '.ws/kinds/x.json': "));
    CHECK_THAT(pack.error().message, Catch::Contains(row.expect));
    // Even when the pack's digest was vouched for before: the claim is not
    // a schema to skip compiling.
    auto vouched = ws::KindPack::from_texts(defaults, {{".ws/kinds/x.json", row.text}},
                                            ws::KindPack::digest_of(defaults, {{".ws/kinds/x.json", row.text}}));
    CHECK_FALSE(vouched.ok());
  }
  // A kind of its own elsewhere, referring to secrets by name, is fine, and
  // so is one that is never read: it only reads less.
  auto opaque = ws::KindPack::from_texts(
      defaults, {{".ws/kinds/x.json", R"({"kind": "credential", "files": "credentials/*", "format": "opaque",
                                          "symbol": "Credentials", "name": "filename"})"}});
  REQUIRE(opaque.ok());
  CHECK(opaque->by_name("credential")->never_read);
  auto fine = ws::KindPack::from_texts(
      defaults, {{".ws/kinds/x.json", R"({"kind": "vault", "files": "vault/*.json", "format": "json", "symbol": "Vaults",
                                          "references": [{"at": "/key", "kind": "secret"}]})"}});
  REQUIRE(fine.ok());
  CHECK(fine->secret_kind() == fine->by_name("secret"));
  CHECK(route_name(*fine, ".secrets/Key") == "secret");
}

TEST_CASE("the default pack's secret kind must be the one that is never read", "[kinds][secrets]") {
  for (const char* text : {
           R"({"kind": "secret", "files": ".secrets/*", "format": "json", "symbol": "Secrets"})",
           R"({"kind": "secret", "files": "keys/*", "format": "opaque", "symbol": "Secrets", "name": "filename"})",
       }) {
    INFO(text);
    auto defaults = default_texts();
    defaults["secret.json"] = text;
    auto pack = ws::KindPack::from_texts(defaults);
    REQUIRE_FALSE(pack.ok());
    CHECK_THAT(pack.error().message, Catch::StartsWith("kind manifest 'secret.json': the secret kind must be"));
  }
  auto defaults = default_texts();
  defaults["vault.json"] = R"({"kind": "vault", "files": ".SECRETS/*.json", "format": "json"})";
  auto pack = ws::KindPack::from_texts(defaults);
  REQUIRE_FALSE(pack.ok());
  CHECK_THAT(pack.error().message, Catch::StartsWith("kind manifest 'vault.json': the secret kind must be"));
}

TEST_CASE("a schema that refers to itself without checking a part of the value is refused", "[kinds]") {
  auto defaults = default_texts();
  auto manifest = [](const std::string& schema) {
    return R"({"kind": "x", "files": "x/*.json", "format": "json", "schema": )" + schema + "}";
  };
  struct Row {
    std::string schema;
    std::string expect;
  };
  const std::vector<Row> rows = {
      {R"({"$ref": "#"})", "schema refers to itself without checking any part of the value: '#' -> '#'"},
      {R"({"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"allOf": [{"$ref": "#/definitions/a"}]}},
           "$ref": "#/definitions/a"})",
       "'#/definitions/a' -> '#/definitions/b' -> '#/definitions/b/allOf/0' -> '#/definitions/a'"},
      {R"({"anyOf": [{"type": "string"}, {"not": {"$ref": "#"}}]})", "'#' -> '#/anyOf/1' -> '#/anyOf/1/not' -> '#'"},
      {R"({"if": {"$ref": "#/then"}, "then": {"$ref": "#/if"}})", "'#/if' -> '#/then' -> '#/if'"},
      {R"({"dependencies": {"a": {"$ref": "#"}}})", "'#' -> '#/dependencies/a' -> '#'"},
      {R"({"$defs": {"a b": {"$ref": "#/$defs/a%20b"}}})", "'#/$defs/a b' -> '#/$defs/a b'"},
      {R"({"$ref": "other.json#"})", "'$ref' at '#' names 'other.json#': only references inside the schema"},
      {R"({"$ref": "#/definitions/nope"})", "names '#/definitions/nope', which is not a subschema of this schema"},
      {R"({"$ref": "#/required"})", "which is not a subschema"},
      {R"({"$ref": 5})", "'$ref' at '#' must be a string"},
      {R"({"properties": {"a": {"$id": "x", "$ref": "#"}}})", "'$id' at '#/properties/a'"},
  };
  for (const Row& row : rows) {
    INFO(row.schema);
    auto pack = ws::KindPack::from_texts(defaults, {{"cyclic.json", manifest(row.schema)}});
    REQUIRE_FALSE(pack.ok());
    CHECK(pack.error().code == ws::Errc::invalid);
    CHECK_THAT(pack.error().message, Catch::StartsWith("kind manifest 'cyclic.json': invalid schema: "));
    CHECK_THAT(pack.error().message, Catch::Contains(row.expect));
  }

  // Recursion that goes one level into the value each time is a tree, and fine.
  auto tree = ws::KindPack::from_texts(
      defaults, {{"tree.json", manifest(R"({"type": "object", "properties": {"name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#"}}}, "additionalProperties": false})")}});
  REQUIRE(tree.ok());
}

TEST_CASE("the kind pack's digest hashes as git hashes a blob", "[kinds]") {
  // blob_id_hex stands in for libcheck's git layer here; its ids must be git's.
  CHECK(ws::detail::blob_id_hex("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  CHECK(ws::detail::blob_id_hex("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a");
  CHECK(ws::detail::blob_id_hex(std::string("a\0b", 3)) == "20b5be91886d0b6f26dc98a225c0dac05fe2c86e");
}
