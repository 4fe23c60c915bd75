// Reading a committed tree on several threads: each reader borrows an object
// database of its own (odb_pool.h), and every one of them must read what the
// repository's own odb reads, a hook's quarantined objects included.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include "git_util.h"
#include "libcheck/grep.h"
#include "libcheck/kinds.h"
#include "libcheck/repository.h"
#include "odb_pool.h"
#include "support/memory_content.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;

namespace {

const ws::KindPack& pack() { return wstest::default_kind_pack(); }

// The committed base alone, as `ws-grep --base=REV` opens it.
ws::View base_view(const ws::Repository& repo, const std::string& rev) {
  ws::ViewSpec spec;
  spec.source = ws::ViewSource::rev;
  spec.base = spec.rev = rev;
  auto v = ws::open_view(repo, nullptr, spec);
  REQUIRE(v.ok());
  return std::move(v).value();
}

// Reads every entry of `view` on `threads` threads at once, each thread all
// of them from a different starting point; the failures and mismatches seen.
std::vector<std::string> read_everywhere(const ws::View& view, const std::map<std::string, std::string>& want,
                                         unsigned threads) {
  std::vector<std::vector<std::string>> bad(threads);
  std::vector<std::thread> pool;
  const auto& entries = view.entries();
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t k = 0; k < entries.size(); ++k) {
        const auto& e = entries[(k + t * entries.size() / threads) % entries.size()];
        auto bytes = view.read(e);
        if (!bytes) bad[t].push_back(e.path + ": " + bytes.error().message);
        else if (*bytes != want.at(e.path)) bad[t].push_back(e.path + ": other bytes");
      }
    });
  for (auto& th : pool) th.join();
  std::vector<std::string> all;
  for (auto& b : bad) all.insert(all.end(), b.begin(), b.end());
  return all;
}

// Sets environment variables for one scope.
struct ScopedEnv {
  std::vector<std::string> names;
  void set(const std::string& name, const std::string& value) {
    ::setenv(name.c_str(), value.c_str(), 1);
    names.push_back(name);
  }
  ~ScopedEnv() {
    for (const auto& n : names) ::unsetenv(n.c_str());
  }
};

}  // namespace

TEST_CASE("a committed tree searched on several threads prints what the same bytes in memory print", "[view][grep]") {
  wstest::TempRepo repo;
  std::map<std::string, std::string> files;
  for (int i = 0; i < 300; ++i) {
    std::string n = std::to_string(1000 + i);
    std::string body = "{\n  \"name\": \"agent-" + n + "\",\n";
    for (int j = 0; j < i % 7; ++j) body += "  \"line" + std::to_string(j) + "\": \"" + (j % 3 ? "refund" : "other") + "\",\n";
    body += "  \"description\": \"" + std::string(static_cast<std::size_t>(i % 50) * 40, i % 2 ? 'x' : 'y') + "\"\n}\n";
    files["agents/AG" + n + ".json"] = body;
    repo.write("agents/AG" + n + ".json", body);
  }
  repo.commit_all("base");
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  ws::View view = base_view(*r, "HEAD");
  REQUIRE(view.entries().size() == files.size());

  CHECK(read_everywhere(view, files, 4).empty());

  std::vector<wstest::MemoryFile> mem;
  for (const auto& [path, bytes] : files) mem.push_back({path, ws::ChangeStatus::unchanged, bytes, {}});
  ws::View memory = wstest::memory_view(mem);
  ws::GrepOptions o;
  o.patterns = {"refund"};
  std::ostringstream want;
  REQUIRE(ws::grep_view(memory, pack(), o, want).ok());
  REQUIRE(!want.str().empty());
  for (int run = 0; run < 5; ++run) {
    std::ostringstream got;
    auto s = ws::grep_view(view, pack(), o, got);
    REQUIRE(s.ok());
    CHECK(s->errors.empty());
    CHECK(got.str() == want.str());
  }
}

TEST_CASE("objects in a push's quarantine are read by every odb lent to a reader", "[view]") {
  wstest::TempRepo repo;
  repo.write("agents/AGa.json", "{\"name\": \"A\"}\n");
  const std::string first = repo.commit_all("first");
  std::map<std::string, std::string> files{{"agents/AGa.json", "{\"name\": \"A\"}\n"}};
  // Several folders, so that the tree walk runs on several threads too.
  const char* folders[] = {"agents/AG", "tasks/TK", "skills/SK", "prompts/PR"};
  for (int i = 0; i < 40; ++i) {
    std::string path = std::string(folders[i % 4]) + "q" + std::to_string(i) + ".json";
    files[path] = "{\"name\": \"Q" + std::to_string(i) + "\"}\n";
    repo.write(path, files[path]);
  }
  const std::string pushed = repo.commit_all("pushed");
  const std::string blob = wstest::chomp(repo.git({"rev-parse", pushed + ":agents/AGq8.json"}));

  // As git receive-pack leaves them for the pre-receive hook: the pushed
  // objects only in the quarantine directory.
  wstest::TempDir quarantine;
  const fs::path objects = fs::path(repo.path()) / ".git" / "objects";
  for (const auto& line : wstest::lines(repo.git({"rev-list", "--objects", first + ".." + pushed}))) {
    std::string id = line.substr(0, 40);
    fs::path from = objects / id.substr(0, 2) / id.substr(2);
    REQUIRE(fs::exists(from));
    fs::create_directories(fs::path(quarantine.path()) / id.substr(0, 2));
    fs::copy_file(from, fs::path(quarantine.path()) / id.substr(0, 2) / id.substr(2));
    fs::remove(from);
  }
  {
    auto plain = ws::Repository::open(repo.path());
    REQUIRE(plain.ok());
    REQUIRE(!plain->read_blob(blob).ok());
  }

  ScopedEnv env;
  env.set("GIT_OBJECT_DIRECTORY", quarantine.path());
  env.set("GIT_ALTERNATE_OBJECT_DIRECTORIES", objects.string());
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());

  auto odbs = ws::detail::OdbPool::of(r->raw());
  REQUIRE(odbs.ok());
  {
    auto one = (*odbs)->borrow();
    auto two = (*odbs)->borrow();
    auto three = (*odbs)->borrow();
    REQUIRE(one.get() != two.get());
    REQUIRE(two.get() != three.get());
    git_oid oid;
    REQUIRE(ws::git::from_hex(blob, oid));
    for (git_odb* odb : {one.get(), two.get(), three.get()}) {
      git_odb_object* raw = nullptr;
      REQUIRE(git_odb_read(&raw, odb, &oid) == 0);
      ws::git::OdbObject obj(raw);
      CHECK(std::string(static_cast<const char*>(git_odb_object_data(obj.get())), git_odb_object_size(obj.get())) ==
            files["agents/AGq8.json"]);
    }
  }
  {
    // Given back, the odbs are lent again rather than opened anew.
    auto one = (*odbs)->borrow();
    auto two = (*odbs)->borrow();
    CHECK(one.get() == (*odbs)->shared());
    CHECK(two.get() != (*odbs)->shared());
  }

  ws::View view = base_view(*r, pushed);
  REQUIRE(view.entries().size() == files.size());
  CHECK(read_everywhere(view, files, 4).empty());
}

TEST_CASE("object ids parse in either case and nothing else parses", "[view]") {
  git_oid oid;
  const std::string lower = "0123456789abcdef0123456789abcdef01234567";
  REQUIRE(ws::git::from_hex(lower, oid));
  CHECK(ws::git::to_hex(oid) == lower);
  std::string upper = "0123456789ABCDEF0123456789ABCDEF01234567";
  REQUIRE(ws::git::from_hex(upper, oid));
  CHECK(ws::git::to_hex(oid) == lower);
  CHECK(!ws::git::from_hex(lower.substr(1), oid));
  CHECK(!ws::git::from_hex(lower + "0", oid));
  CHECK(!ws::git::from_hex("g" + lower.substr(1), oid));
  CHECK(!ws::git::from_hex(lower.substr(0, 39) + "/", oid));
  CHECK(!ws::git::from_hex(lower.substr(0, 39) + ":", oid));
  CHECK(!ws::git::from_hex(std::string(40, ' '), oid));
  // hex_equals agrees with to_hex: lower case only, every digit counts.
  REQUIRE(ws::git::from_hex(lower, oid));
  CHECK(ws::git::hex_equals(lower, oid.id));
  CHECK_FALSE(ws::git::hex_equals(upper, oid.id));
  CHECK_FALSE(ws::git::hex_equals(lower.substr(0, 39), oid.id));
  for (std::size_t i : {0u, 1u, 20u, 39u}) {
    std::string off = lower;
    off[i] = off[i] == '0' ? '1' : '0';
    INFO(i);
    CHECK_FALSE(ws::git::hex_equals(off, oid.id));
  }
}
