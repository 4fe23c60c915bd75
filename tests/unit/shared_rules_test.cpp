// Rules that several modules ask, answered in one place each, with the
// cases that would show a copy drifting: branch names as messages show
// them (libcheck/proposal.h), where gitattributes may come from
// (git/git_attributes.h: the view's fast path and ws-commit's diffstat ask
// it alike), and the proposal file-list record (libcheck/proposal_json.h).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "git_attributes.h"
#include "libcheck/policy_change.h"
#include "libcheck/proposal.h"
#include "libcheck/proposal_json.h"
#include "libcheck/repository.h"
#include "libcheck/view.h"
#include "libcheck/workspace_root.h"
#include "proposal_internal.h"
#include "support/temp_repo.h"

TEST_CASE("branch_display names a branch by its short name, any other ref in full", "[shared-rules]") {
  CHECK(ws::branch_display("refs/heads/main") == "main");
  CHECK(ws::branch_display("refs/heads/feature/x") == "feature/x");
  CHECK(ws::branch_display("refs/heads/refs/heads/x") == "refs/heads/x");  // stripped once
  CHECK(ws::branch_display("refs/remotes/origin/main") == "refs/remotes/origin/main");
  CHECK(ws::branch_display("refs/headsx/main") == "refs/headsx/main");
  CHECK(ws::branch_display("refs/heads") == "refs/heads");
  CHECK(ws::branch_display("main") == "main");
  CHECK(ws::branch_display("") == "");
}

TEST_CASE("is_gitattributes_path: the file in any folder, spelt exactly", "[shared-rules]") {
  using ws::git::is_gitattributes_path;
  CHECK(is_gitattributes_path(".gitattributes"));
  CHECK(is_gitattributes_path("a/.gitattributes"));
  CHECK(is_gitattributes_path("a/b/c/.gitattributes"));
  CHECK_FALSE(is_gitattributes_path("a.gitattributes"));
  CHECK_FALSE(is_gitattributes_path("a/x.gitattributes"));
  CHECK_FALSE(is_gitattributes_path(".gitattributes/x"));
  CHECK_FALSE(is_gitattributes_path(".gitattributes~"));
  CHECK_FALSE(is_gitattributes_path("gitattributes"));
  CHECK_FALSE(is_gitattributes_path(""));
}

namespace {

// libgit2's search path for `level`, set to `dir` for the life of the
// object and restored after, so that the machine's own files do not count.
class SearchPath {
 public:
  SearchPath(git_config_level_t level, const std::string& dir) : level_(level) {
    git_libgit2_init();  // the options need libgit2 up, whichever test runs first
    git_buf buf = GIT_BUF_INIT;
    REQUIRE(git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &buf) == 0);
    old_.assign(buf.ptr ? buf.ptr : "", buf.size);
    git_buf_dispose(&buf);
    REQUIRE(git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, dir.c_str()) == 0);
  }
  ~SearchPath() {
    git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level_, old_.c_str());
    git_libgit2_shutdown();
  }
  SearchPath(const SearchPath&) = delete;
  SearchPath& operator=(const SearchPath&) = delete;

 private:
  git_config_level_t level_;
  std::string old_;
};

void put(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A repository with one file committed, and empty folders that libgit2
// takes for the user's and the system's configuration while this lives.
struct Isolated {
  wstest::TempRepo repo;
  wstest::TempDir user, system;
  SearchPath xdg_path{GIT_CONFIG_LEVEL_XDG, user.path()};
  SearchPath system_path{GIT_CONFIG_LEVEL_SYSTEM, system.path()};
  Isolated() {
    repo.write("agents/AGa.json", "{}\n");
    repo.commit_all("base");
  }
};

}  // namespace

TEST_CASE("attributes_file_outside_tree names the file libgit2 would read, or nothing", "[shared-rules]") {
  Isolated isolated;
  const wstest::TempRepo& repo = isolated.repo;
  const wstest::TempDir& user = isolated.user;
  const wstest::TempDir& system = isolated.system;
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto outside = [&] {
    auto fresh = ws::Repository::open(repo.path());  // a fresh configuration snapshot
    REQUIRE(fresh.ok());
    return ws::git::attributes_file_outside_tree(fresh->raw());
  };
  CHECK(outside() == "");

  put(user.path() + "/attributes", "* text\n");
  CHECK(outside() == "attributes file '" + user.path() + "/attributes'");
  std::remove((user.path() + "/attributes").c_str());
  put(system.path() + "/gitattributes", "* text\n");
  CHECK(outside() == "attributes file '" + system.path() + "/gitattributes'");
  std::remove((system.path() + "/gitattributes").c_str());
  // The names of the other level's file count for nothing.
  put(user.path() + "/gitattributes", "* text\n");
  put(system.path() + "/attributes", "* text\n");
  CHECK(outside() == "");

  repo.write(".git/info/attributes", "* text\n");
  CHECK(outside() == "attributes file '" + r->common_dir() + (r->common_dir().back() == '/' ? "" : "/") +
                          "info/attributes'");
  repo.remove(".git/info/attributes");
  // Set at all, even to a file that is not there: git would look.
  repo.git({"config", "core.attributesFile", repo.path() + "/none"});
  CHECK(outside() == "core.attributesFile");
  repo.git({"config", "--unset", "core.attributesFile"});
  CHECK(outside() == "");
}

TEST_CASE("attributes_may_apply is the view's .gitattributes or a file outside the tree", "[shared-rules]") {
  Isolated isolated;
  const wstest::TempRepo& repo = isolated.repo;
  auto may_apply = [&] {
    auto r = ws::Repository::open(repo.path());
    REQUIRE(r.ok());
    auto root = ws::WorkspaceRoot::open(repo.path(), "");
    REQUIRE(root.ok());
    auto view = ws::open_view(*r, std::make_shared<const ws::WorkspaceRoot>(std::move(root).value()), ws::ViewSpec{});
    REQUIRE(view.ok());
    return ws::proposal::attributes_may_apply(r->raw(), *view);
  };
  CHECK_FALSE(may_apply());
  repo.write("agents/sub/.gitattributes", "*.json diff=json\n");  // untracked, at any depth
  CHECK(may_apply());
  repo.remove("agents/sub/.gitattributes");
  repo.write("agents/x.gitattributes", "*.json diff=json\n");  // a name that only ends so
  CHECK_FALSE(may_apply());
  repo.write(".git/info/attributes", "* text\n");
  CHECK(may_apply());
}

TEST_CASE("file_list_json: the record both tools print for a proposal's files", "[shared-rules]") {
  std::vector<ws::FileStat> files(3);
  files[0].path = "agents/a.json";
  files[0].status = ws::ChangeStatus::modified;
  files[0].additions = 2;
  files[0].deletions = 1;
  files[1].path = "docs/new.txt";
  files[1].old_path = "docs/old.txt";
  files[1].status = ws::ChangeStatus::renamed;
  files[2].path = "docs/leak.txt";
  files[2].status = ws::ChangeStatus::deleted;
  files[2].secret = true;
  files[2].additions = 7;  // never shown: it would describe a secret's bytes
  CHECK(ws::file_list_json(files).dump() ==
        R"([{"additions":2,"deletions":1,"path":"agents/a.json","status":"M"},)"
        R"({"additions":0,"deletions":0,"old_path":"docs/old.txt","path":"docs/new.txt","status":"R"},)"
        R"({"additions":null,"deletions":null,"path":"docs/leak.txt","secret":true,"status":"D"}])");
  CHECK(ws::file_list_json({}).dump() == "[]");
}

TEST_CASE("policy_paths of plain paths, and the list as messages quote it", "[shared-rules]") {
  CHECK(ws::policy_paths_among({"b.json", ".WS/x", "", ".ws/config.json", ".ws/config.json", ".ws"}) ==
        std::vector<std::string>{".WS/x", ".ws", ".ws/config.json"});
  CHECK(ws::quoted_path_list({".ws/a", ".ws/b\x1b"}) == "'.ws/a', '.ws/b\\x1b'");
  CHECK(ws::quoted_path_list({}) == "");
}

TEST_CASE("too_large_message: one wording of the size cap's refusal, path shown printable", "[shared-rules]") {
  CHECK(ws::too_large_message("agents/a.json", 2048, 1024) ==
        "refused path 'agents/a.json': too-large (2048 bytes, over the size cap of 1024); split the file or raise "
        "\"size_cap\" in .ws/config.json");
  CHECK(ws::too_large_message("a\x1b[2J.json", 2, 1) ==
        "refused path 'a\\x1b[2J.json': too-large (2 bytes, over the size cap of 1); split the file or raise "
        "\"size_cap\" in .ws/config.json");
  ws::Error e = ws::too_large_error("agents/a.json", 2048, 1024);
  CHECK(e.code == ws::Errc::invalid);
  CHECK(e.message == ws::too_large_message("agents/a.json", 2048, 1024));
  CHECK(e.subject == "agents/a.json");
  // The working tree's refusal is the same sentence.
  ws::FileError fe{ws::FileRule::too_large, "agents/a.json"};
  fe.size = 2048;
  fe.cap = 1024;
  CHECK(fe.message() == e.message);
}
