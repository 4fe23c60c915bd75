// The definition cache file: round trip, damage and other versions ignored
// (never a crash), atomic writes, pruning.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "compile_record.h"
#include "definition_cache.h"
#include "support/source_scan.h"
#include "support/temp_repo.h"

using namespace ws;
using compile_detail::RecordView;
namespace fs = std::filesystem;

namespace {

Span span(std::uint32_t a, std::uint32_t b, std::uint32_t l, std::uint32_t c) {
  return Span{a, b, {l, c}, {l, c + (b - a)}};
}

Definition sample(const std::string& path) {
  Definition d;
  d.path = path;
  d.kind = "node-type";
  d.name = "Ticket";
  d.has_name = true;
  d.name_span = span(13, 19, 2, 12);
  d.members = {{"Title", span(40, 45, 4, 16)}, {"Status", span(80, 86, 5, 16)}};
  d.refs = {{"agent", "Triage", "", span(100, 106, 7, 3), RefOrigin::json, "Triage"},
            {"node-type", "Ticket", "Status", span(110, 125, 8, 1), RefOrigin::code, "N.Ticket.Status"}};
  Diagnostic diag = make_diag(DiagCode::schema_violation, path, span(30, 35, 3, 5), "unknown field 'toosl'");
  diag.notes.push_back(Note{path, span(1, 2, 1, 2), true, "in this object"});
  diag.notes.push_back(Note{"", {}, false, "allowed: name, fields"});
  diag.notes.push_back(Note{"other/file.json", {}, false, "see there"});
  d.diagnostics = {diag, make_file_diag(DiagCode::bad_encoding, path, "not UTF-8")};
  return d;
}

void spit(const std::string& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<std::string> dir_listing(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Records must outlive the cache: they go into its arena first.
void put(DefinitionCache& c, const std::string& blob, const std::string& kind, const Definition& d) {
  c.insert(blob, kind, c.arena().store(compile_detail::encode_record(d)));
}

// A cache file with two entries saved in `dir`.
std::string saved_cache(const wstest::TempDir& dir) {
  std::string file = dir.path() + "/cache/definitions";
  DefinitionCache c("0.1.0", "digest-a");
  put(c, "1111111111111111111111111111111111111111", "node-type", sample("x"));
  put(c, "2222222222222222222222222222222222222222", "agent", sample("y"));
  REQUIRE(c.save(file, 100).ok());
  return file;
}

}  // namespace

TEST_CASE("definition record: encode and decode give the definition back, relative to its path", "[compile][cache]") {
  Definition d = sample("node-types/t.json");
  std::string bytes = compile_detail::encode_record(d);
  RecordView v(bytes);
  REQUIRE(v.valid());
  Definition back = v.decode("node-types/u.json", "node-type");
  CHECK(back.name == "Ticket");
  CHECK(back.has_name);
  CHECK(back.name_span.start.column == 12);
  REQUIRE(back.members.size() == 2);
  CHECK(back.members[1].name == "Status");
  REQUIRE(back.refs.size() == 2);
  CHECK(back.refs[0].origin == RefOrigin::json);
  CHECK(back.refs[1].member == "Status");
  CHECK(back.refs[1].span.start.line == 8);
  REQUIRE(back.diagnostics.size() == 2);
  const Diagnostic& diag = back.diagnostics[0];
  CHECK(diag.path == "node-types/u.json");  // placed at the path it is used under
  CHECK(diag.code == DiagCode::schema_violation);
  CHECK(diag.span.start.column == 5);
  REQUIRE(diag.notes.size() == 3);
  CHECK(diag.notes[0].path == "node-types/u.json");
  CHECK(diag.notes[1].path == "");
  CHECK(diag.notes[2].path == "other/file.json");
  CHECK_FALSE(back.diagnostics[1].has_span);
  CHECK(v.has_member("Title"));
  CHECK_FALSE(v.has_member("Nope"));
  CHECK_FALSE(v.partly_read());
  CHECK_FALSE(back.partly_read);
}

TEST_CASE("definition record: a partly read definition stays partly read", "[compile][cache]") {
  Definition d = sample("ai-tools/t.cs");
  d.partly_read = true;
  std::string bytes = compile_detail::encode_record(d);
  RecordView v(bytes);
  REQUIRE(v.valid());
  CHECK(v.partly_read());
  CHECK(v.has_name());
  CHECK(v.decode("ai-tools/t.cs", "ai-tool").partly_read);
  d.has_name = false;
  std::string nameless_bytes = compile_detail::encode_record(d);
  RecordView nameless(nameless_bytes);
  CHECK(nameless.partly_read());
  CHECK_FALSE(nameless.has_name());
}

TEST_CASE("definition record: truncated or garbled records are invalid, never a crash", "[compile][cache]") {
  std::string bytes = compile_detail::encode_record(sample("p"));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    RecordView v(std::string_view(bytes).substr(0, n));
    CHECK_FALSE(v.valid());
  }
  std::string garbled = bytes;
  for (std::size_t i = 0; i < garbled.size(); i += 7) {
    garbled[i] = static_cast<char>(garbled[i] ^ 0xA5);
    RecordView v(garbled);
    if (v.valid()) {  // whatever it decodes to, it decodes without reading out of bounds
      (void)v.decode("p", "k");
    }
  }
}

TEST_CASE("definition cache: saves and loads back every entry", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = saved_cache(dir);
  DefinitionCache c("0.1.0", "digest-a");
  auto loaded = c.load(file);
  CHECK(loaded.state == DefinitionCache::LoadState::loaded);
  CHECK(c.size() == 2);
  CHECK_FALSE(c.dirty());
  auto rec = c.find("1111111111111111111111111111111111111111", "node-type");
  REQUIRE(rec);
  CHECK(RecordView(*rec).decode("a", "node-type").refs.size() == 2);
  CHECK_FALSE(c.find("1111111111111111111111111111111111111111", "agent"));  // kind is part of the key
  CHECK_FALSE(c.find("3333333333333333333333333333333333333333", "agent"));
  // Saving the same entries again gives the same bytes.
  std::string before = wstest::read_file(file);
  c.mark_dirty();
  REQUIRE(c.save(file, 100).ok());
  CHECK(wstest::read_file(file) == before);
}

TEST_CASE("definition cache: a missing file is empty, not an error", "[compile][cache]") {
  wstest::TempDir dir;
  DefinitionCache c("0.1.0", "d");
  CHECK(c.load(dir.path() + "/none").state == DefinitionCache::LoadState::missing);
  CHECK(c.size() == 0);
}

TEST_CASE("definition cache: another tool version or kind pack is ignored and rebuilt", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = saved_cache(dir);
  DefinitionCache other_version("0.2.0", "digest-a");
  auto a = other_version.load(file);
  CHECK(a.state == DefinitionCache::LoadState::rejected);
  CHECK(a.reason == "other tool version");
  CHECK(other_version.size() == 0);
  CHECK(other_version.dirty());
  DefinitionCache other_pack("0.1.0", "digest-b");
  auto b = other_pack.load(file);
  CHECK(b.state == DefinitionCache::LoadState::rejected);
  CHECK(b.reason == "other kind pack");
  // Rebuilt: saving replaces it with a file of the new version.
  put(other_version, "4444444444444444444444444444444444444444", "agent", sample("z"));
  REQUIRE(other_version.save(file, 100).ok());
  DefinitionCache again("0.2.0", "digest-a");
  CHECK(again.load(file).state == DefinitionCache::LoadState::loaded);
  CHECK(again.size() == 1);
}

TEST_CASE("definition cache: damaged files are ignored, whatever the damage", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = saved_cache(dir);
  const std::string good = wstest::read_file(file);
  auto rejected = [&](const std::string& bytes) {
    spit(file, bytes);
    DefinitionCache c("0.1.0", "digest-a");
    auto r = c.load(file);
    return r.state == DefinitionCache::LoadState::rejected && c.size() == 0;
  };
  CHECK(rejected(""));
  CHECK(rejected("not a cache at all"));
  CHECK(rejected(std::string(4096, '\0')));
  for (std::size_t n : {std::size_t(8), std::size_t(20), good.size() / 2, good.size() - 1})
    CHECK(rejected(good.substr(0, n)));  // truncated anywhere
  for (std::size_t i = 0; i < good.size(); i += 13) {  // any flipped byte
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x40);
    CHECK(rejected(bad));
  }
  CHECK(rejected(good + "x"));
  spit(file, good);
  DefinitionCache c("0.1.0", "digest-a");
  CHECK(c.load(file).state == DefinitionCache::LoadState::loaded);
}

TEST_CASE("definition cache: saving is atomic and leaves no temporary files", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = saved_cache(dir);
  CHECK(dir_listing(dir.path() + "/cache") == std::vector<std::string>{"definitions"});
  DefinitionCache c("0.1.0", "digest-a");
  REQUIRE(c.load(file).state == DefinitionCache::LoadState::loaded);
  put(c, "5555555555555555555555555555555555555555", "agent", sample("q"));
  REQUIRE(c.save(file, 100).ok());
  CHECK(dir_listing(dir.path() + "/cache") == std::vector<std::string>{"definitions"});
  // A directory that cannot be written is an error value, and the old file stays.
  fs::permissions(dir.path() + "/cache", fs::perms::owner_read | fs::perms::owner_exec);
  put(c, "6666666666666666666666666666666666666666", "agent", sample("r"));
  auto failed = c.save(file, 100);
  fs::permissions(dir.path() + "/cache", fs::perms::owner_all);
  if (geteuid() != 0) {  // root writes anywhere
    CHECK_FALSE(failed.ok());
    DefinitionCache after("0.1.0", "digest-a");
    CHECK(after.load(file).state == DefinitionCache::LoadState::loaded);
    CHECK(after.size() == 3);
  }
  CHECK(dir_listing(dir.path() + "/cache") == std::vector<std::string>{"definitions"});
}

TEST_CASE("definition cache: entries this build did not use are pruned once it outgrows the limit", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = saved_cache(dir);
  DefinitionCache c("0.1.0", "digest-a");
  REQUIRE(c.load(file).state == DefinitionCache::LoadState::loaded);
  CHECK(c.find("2222222222222222222222222222222222222222", "agent"));
  put(c, "7777777777777777777777777777777777777777", "agent", sample("s"));
  REQUIRE(c.save(file, 100).ok());  // under the limit: everything kept
  DefinitionCache kept("0.1.0", "digest-a");
  REQUIRE(kept.load(file).state == DefinitionCache::LoadState::loaded);
  CHECK(kept.size() == 3);
  CHECK(kept.find("7777777777777777777777777777777777777777", "agent"));
  kept.mark_dirty();
  REQUIRE(kept.save(file, 2));  // over the limit: only the one entry used
  DefinitionCache pruned("0.1.0", "digest-a");
  REQUIRE(pruned.load(file).state == DefinitionCache::LoadState::loaded);
  CHECK(pruned.size() == 1);
  CHECK(pruned.find("7777777777777777777777777777777777777777", "agent"));
}

TEST_CASE("definition cache: thousands of entries survive growth, a save and a load", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = dir.path() + "/definitions";
  auto blob = [](int i) {
    char buf[41];
    std::snprintf(buf, sizeof buf, "%040x", i * 2654435761u);
    return std::string(buf);
  };
  DefinitionCache c("0.1.0", "d");
  for (int i = 0; i < 5000; ++i) {
    Definition d;
    d.name = "N" + std::to_string(i);
    d.has_name = true;
    put(c, blob(i), i % 2 ? "agent" : "skill", d);
  }
  CHECK(c.size() == 5000);
  REQUIRE(c.save(file, 100000).ok());
  DefinitionCache back("0.1.0", "d");
  REQUIRE(back.load(file).state == DefinitionCache::LoadState::loaded);
  CHECK(back.size() == 5000);
  int found = 0;
  for (int i = 0; i < 5000; ++i) {
    auto rec = back.find(blob(i), i % 2 ? "agent" : "skill");
    if (rec && RecordView(*rec).name() == "N" + std::to_string(i)) ++found;
    CHECK_FALSE(back.find(blob(i), i % 2 ? "skill" : "agent"));
  }
  CHECK(found == 5000);
}

TEST_CASE("definition cache: the checksum is the same fed whole or in pieces", "[compile][cache]") {
  std::string bytes;
  for (int i = 0; i < 1000; ++i) bytes.push_back(static_cast<char>(i * 37 + 11));
  const std::uint64_t whole = DefinitionCache::checksum(bytes);
  for (std::size_t step : {1, 3, 7, 8, 9, 64, 999}) {
    DefinitionCache::Checksum c;
    for (std::size_t at = 0; at < bytes.size(); at += step) c.update(std::string_view(bytes).substr(at, step));
    CHECK(c.value() == whole);
  }
  CHECK(DefinitionCache::checksum("") != DefinitionCache::checksum(std::string(1, '\0')));
}

TEST_CASE("definition cache: the header names the kind pack its tool version validated", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = saved_cache(dir);  // written by "0.1.0" for "digest-a"
  CHECK(DefinitionCache::validated_kind_digest(file, "0.1.0") == "digest-a");
  CHECK(DefinitionCache::validated_kind_digest(file, "0.2.0") == "");
  CHECK(DefinitionCache::validated_kind_digest(dir.path() + "/none", "0.1.0") == "");
  // Anything that is not a cache of this format vouches for nothing.
  std::ofstream(dir.path() + "/junk", std::ios::binary) << "WSDEFCAC\x02";
  CHECK(DefinitionCache::validated_kind_digest(dir.path() + "/junk", "0.1.0") == "");
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    bytes = s.str();
  }
  bytes[8] = static_cast<char>(DefinitionCache::kFormatVersion + 1);
  std::ofstream(dir.path() + "/other-format", std::ios::binary) << bytes;
  CHECK(DefinitionCache::validated_kind_digest(dir.path() + "/other-format", "0.1.0") == "");
}

TEST_CASE("definition cache: lookups in the saved order need no index, others still find", "[compile][cache]") {
  wstest::TempDir dir;
  const std::string file = dir.path() + "/cache/definitions";
  auto blob = [](int i) {
    std::string b = std::to_string(i);
    return std::string(40 - b.size(), '0') + b;
  };
  {
    DefinitionCache c("0.1.0", "d");
    // Use numbers reserved in one order, records inserted in another (as
    // parser threads finish): the file follows the use numbers.
    std::vector<std::uint32_t> uses;
    for (int i = 0; i < 100; ++i) uses.push_back(c.reserve_use());
    for (int i = 99; i >= 0; --i)
      c.insert(blob(i), "agent", c.arena().store(compile_detail::encode_record(sample("N" + std::to_string(i)))),
               uses[static_cast<std::size_t>(i)]);
    REQUIRE(c.save(file, 1000).ok());
  }
  DefinitionCache in_order("0.1.0", "d");
  REQUIRE(in_order.load(file).state == DefinitionCache::LoadState::loaded);
  for (int i = 0; i < 100; ++i) {
    INFO(i);
    auto rec = in_order.find(blob(i), "agent");
    REQUIRE(rec);
    CHECK(RecordView(*rec).decode("p", "agent").path == "p");
  }
  CHECK_FALSE(in_order.indexed());
  CHECK_FALSE(in_order.find(blob(100), "agent"));  // a miss falls back to the index
  CHECK(in_order.indexed());

  DefinitionCache shuffled("0.1.0", "d");
  REQUIRE(shuffled.load(file).state == DefinitionCache::LoadState::loaded);
  int found = 0;
  for (int i : {50, 3, 99, 0, 51, 52, 7}) found += shuffled.find(blob(i), "agent").has_value();
  CHECK(found == 7);
  CHECK_FALSE(shuffled.find(blob(5), "skill"));  // same blob, other kind
  // Peeking needs the index, and finds what find finds.
  DefinitionCache peeking("0.1.0", "d");
  REQUIRE(peeking.load(file).state == DefinitionCache::LoadState::loaded);
  peeking.prepare_peek();
  CHECK(peeking.peek(blob(42), "agent").has_value());
  CHECK_FALSE(peeking.peek(blob(42), "skill").has_value());
}

TEST_CASE("definition cache: a few lookups are answered by the file's table, entries unread", "[compile][cache]") {
  wstest::TempDir dir;
  const std::string file = dir.path() + "/cache/definitions";
  auto blob = [](int i) {
    std::string b = std::to_string(i);
    return std::string(40 - b.size(), '0') + b;
  };
  auto named = [](int i) {
    Definition d = sample("p");
    d.name = "N" + std::to_string(i);
    return compile_detail::encode_record(d);
  };
  {
    DefinitionCache c("0.1.0", "d");
    for (int i = 0; i < 200; ++i)
      c.insert(blob(i), "agent", c.arena().store(named(i)));
    REQUIRE(c.save(file, 1000).ok());
  }
  DefinitionCache few("0.1.0", "d");
  REQUIRE(few.load(file).state == DefinitionCache::LoadState::loaded);
  CHECK_FALSE(few.entries_read());
  CHECK(few.size() == 200);
  for (int i : {150, 3, 77}) {
    auto rec = few.find(blob(i), "agent");
    REQUIRE(rec);
    CHECK(RecordView(*rec).name() == "N" + std::to_string(i));
  }
  CHECK_FALSE(few.find(blob(5), "skill"));
  CHECK_FALSE(few.find(blob(500), "agent"));
  few.prepare_peek();
  CHECK(few.peek(blob(9), "agent").has_value());
  CHECK_FALSE(few.peek(blob(9), "skill").has_value());
  CHECK_FALSE(few.entries_read());
  CHECK_FALSE(few.indexed());
  // A new record reads them; the three found first are saved first, in
  // the order they were found, then the new one.
  few.insert(blob(999), "agent", few.arena().store(named(999)));
  CHECK(few.entries_read());
  CHECK(few.size() == 201);
  REQUIRE(few.save(file, 1000).ok());
  DefinitionCache again("0.1.0", "d");
  REQUIRE(again.load(file).state == DefinitionCache::LoadState::loaded);
  // The table's share of lookups, all misses; the next one reads the
  // entries, and those follow the saved order: no index is needed.
  for (int i = 0; i < 64; ++i) CHECK_FALSE(again.find(blob(1000 + i), "agent"));
  CHECK_FALSE(again.entries_read());
  for (int i : {150, 3, 77, 999}) CHECK(again.find(blob(i), "agent").has_value());
  CHECK(again.entries_read());
  CHECK_FALSE(again.indexed());
}

TEST_CASE("definition cache: loaded for any kind pack, adopted only by its own", "[compile][cache]") {
  wstest::TempDir dir;
  std::string file = saved_cache(dir);  // "digest-a"
  DefinitionCache same("0.1.0", "");
  auto loaded = same.load(file);
  REQUIRE(loaded.state == DefinitionCache::LoadState::loaded);
  auto kept = same.adopt(loaded, "digest-a");
  CHECK(kept.state == DefinitionCache::LoadState::loaded);
  CHECK(same.size() == 2);
  CHECK_FALSE(same.dirty());
  CHECK(same.find("1111111111111111111111111111111111111111", "node-type"));

  DefinitionCache other("0.1.0", "");
  auto r = other.adopt(other.load(file), "digest-b");
  CHECK(r.state == DefinitionCache::LoadState::rejected);
  CHECK(r.reason == "other kind pack");
  CHECK(other.size() == 0);
  CHECK(other.dirty());
  // Saved, it is the new pack's cache.
  put(other, "3333333333333333333333333333333333333333", "agent", sample("q"));
  REQUIRE(other.save(file, 100).ok());
  CHECK(DefinitionCache::validated_kind_digest(file, "0.1.0") == "digest-b");

  DefinitionCache missing("0.1.0", "");
  auto none = missing.adopt(missing.load(dir.path() + "/none"), "digest-a");
  CHECK(none.state == DefinitionCache::LoadState::missing);
  CHECK(missing.size() == 0);
}
