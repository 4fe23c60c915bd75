// The index reader against index files git itself writes, in every version
// it reads, and against damaged ones.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "index_file.h"
#include "support/source_scan.h"
#include "support/temp_repo.h"

using ws::detail::IndexFile;

namespace {

std::string hex(const unsigned char* id) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 20; ++i) {
    s += digits[id[i] >> 4];
    s += digits[id[i] & 15];
  }
  return s;
}

// `git ls-files -s` as our reader sees the index: "mode id stage\tpath".
std::string as_ls_files(const IndexFile& index) {
  std::ostringstream out;
  for (const auto& e : index.entries())
    out << std::oct << e.mode << std::dec << ' ' << hex(e.id) << ' ' << e.stage << '\t' << index.path(e) << '\n';
  return out.str();
}

void seed(const wstest::TempRepo& repo) {
  repo.write("agents/AGa.json", "{\"name\": \"A\"}\n");
  repo.write("agents/AGa.json.bak", "x\n");
  repo.write("agents/AGa-b.json", "y\n");
  repo.write("agents/sub/deep/z.json", "z\n");
  repo.write("ai-tools/TLt.cs", "// name: T\n");
  repo.write("tools/run.sh", "#!/bin/sh\n");
  repo.commit_all("base");
  repo.git({"update-index", "--chmod=+x", "tools/run.sh"});
}

}  // namespace

TEST_CASE("index file: versions 2, 3 and 4 read as git ls-files -s lists them", "[index]") {
  wstest::TempRepo repo;
  seed(repo);
  repo.write("new/intent.json", "{}\n");
  repo.git({"add", "-N", "new/intent.json"});  // an extended flag: version 3
  for (const char* version : {"2", "3", "4"}) {
    INFO("version " << version);
    if (std::string(version) == "2") {
      repo.git({"rm", "-q", "--cached", "new/intent.json"});
      repo.git({"update-index", "--index-version", "2"});
    } else {
      repo.git({"update-index", "--index-version", version});
      if (std::string(version) == "3") {
        repo.git({"add", "-N", "new/intent.json"});
        repo.git({"update-index", "--index-version", "3"});
      }
    }
    REQUIRE(wstest::read_file(repo.abs(".git/index"))[7] == std::stoi(version));
    auto index = IndexFile::read(repo.abs(".git/index"));
    REQUIRE(index.state() == IndexFile::State::ok);
    CHECK(as_ls_files(index) == repo.git({"ls-files", "-s"}));
    CHECK(index.find("agents/AGa.json") != nullptr);
    CHECK(index.find("agents/AGa") == nullptr);
    CHECK(index.find("agents") == nullptr);
    CHECK(index.has_prefix("agents/sub/"));
    CHECK(index.has_prefix("agents/"));
    CHECK_FALSE(index.has_prefix("agent/"));
    CHECK_FALSE(index.has_prefix("zzz/"));
    const auto* x = index.find("tools/run.sh");
    REQUIRE(x);
    CHECK(x->mode == 0100755);
    const auto* ita = index.find("new/intent.json");
    CHECK((ita != nullptr) == (std::string(version) != "2"));
    if (ita) CHECK(ita->intent_to_add);
  }
}

TEST_CASE("index file: conflict stages and stat data", "[index]") {
  wstest::TempRepo repo;
  seed(repo);
  repo.git({"checkout", "-q", "-b", "other"});
  repo.write("agents/AGa.json", "{\"name\": \"Other\"}\n");
  repo.commit_all("other");
  repo.git({"checkout", "-q", "main"});
  repo.write("agents/AGa.json", "{\"name\": \"Main\"}\n");
  repo.commit_all("main");
  CHECK(repo.git_result({"merge", "-q", "other"}).status != 0);
  auto index = IndexFile::read(repo.abs(".git/index"));
  REQUIRE(index.state() == IndexFile::State::ok);
  CHECK(as_ls_files(index) == repo.git({"ls-files", "-s"}));
  CHECK(index.find("agents/AGa.json") == nullptr);  // stages 1 to 3 only
  CHECK(index.has_prefix("agents/"));
  // Stat data as git recorded it.
  auto debug = repo.git({"ls-files", "--debug", "ai-tools/TLt.cs"});
  const auto* t = index.find("ai-tools/TLt.cs");
  REQUIRE(t);
  CHECK(debug.find("size: " + std::to_string(t->size) + "\t") != std::string::npos);
  CHECK(debug.find("ino: " + std::to_string(t->ino) + "\n") != std::string::npos);
  CHECK(debug.find("mtime: " + std::to_string(t->mtime_s) + ":" + std::to_string(t->mtime_ns) + "\n") !=
        std::string::npos);
}

TEST_CASE("index file: what it does not understand is unsupported, not guessed", "[index]") {
  wstest::TempRepo repo;
  seed(repo);
  CHECK(IndexFile::read(repo.abs(".git/no-such-index")).state() == IndexFile::State::missing);
  const std::string good = wstest::read_file(repo.abs(".git/index"));
  REQUIRE(IndexFile::parse(good).state() == IndexFile::State::ok);

  repo.git({"update-index", "--split-index"});
  auto split = IndexFile::read(repo.abs(".git/index"));
  // Refused at its first entry with an empty path (replaced from the shared
  // index) or else at its "link" extension: never read as a whole index.
  CHECK(split.state() == IndexFile::State::unsupported);
  repo.git({"update-index", "--no-split-index"});
  CHECK(IndexFile::read(repo.abs(".git/index")).state() == IndexFile::State::ok);

  std::string v5 = good;
  v5[7] = 5;
  CHECK(IndexFile::parse(v5).reason() == "version 5");
  // Every truncation of a real index, and every single-byte change of its
  // header and first entry, is read or refused without a crash.
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto cut = IndexFile::parse(std::string_view(good).substr(0, n));
    if (cut.state() == IndexFile::State::ok) CHECK(cut.entries().size() <= 6);
  }
  for (std::size_t i = 0; i < std::min<std::size_t>(good.size(), 200); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    auto r = IndexFile::parse(bad);
    if (r.state() == IndexFile::State::ok)
      for (const auto& e : r.entries()) CHECK(r.path(e).size() > 0);
  }
  CHECK(IndexFile::parse("").state() == IndexFile::State::unsupported);
  CHECK(IndexFile::parse("DIRC").state() == IndexFile::State::unsupported);
}

TEST_CASE("index file: the cache tree's root is HEAD's tree until something is staged", "[index]") {
  wstest::TempRepo repo;
  seed(repo);
  repo.git({"commit", "-q", "-m", "mode"});  // seed() leaves a staged mode change
  auto tree_of_head = repo.git({"rev-parse", "HEAD^{tree}"});
  tree_of_head.pop_back();
  auto index = IndexFile::read(repo.abs(".git/index"));
  REQUIRE(index.state() == IndexFile::State::ok);
  REQUIRE(index.root_tree() != nullptr);
  CHECK(hex(index.root_tree()) == tree_of_head);
  repo.write("agents/AGa.json", "{\"name\": \"Staged\"}\n");
  repo.git({"add", "agents/AGa.json"});
  CHECK(IndexFile::read(repo.abs(".git/index")).root_tree() == nullptr);  // invalidated along the path
  repo.git({"commit", "-q", "-m", "staged"});
  auto after = IndexFile::read(repo.abs(".git/index"));
  REQUIRE(after.root_tree() != nullptr);
  auto new_tree = repo.git({"rev-parse", "HEAD^{tree}"});
  new_tree.pop_back();
  CHECK(hex(after.root_tree()) == new_tree);
}
