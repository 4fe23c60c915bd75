// worktree_status() against libgit2's git_diff_tree_to_workdir_with_index:
// after each of a series of edits a user makes, the two ways of building a
// working-tree view must give the same entries, field by field.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <cstdint>
#include <map>
#include <sstream>

#include "libcheck/repository.h"
#include "libcheck/workspace_root.h"
#include "support/temp_repo.h"
#include "view_internal.h"
#include "worktree_status.h"

namespace fs = std::filesystem;
using ws::ViewEntry;

namespace {

std::string describe(const ViewEntry& e) {
  std::ostringstream s;
  s << static_cast<char>(e.status) << ' ' << e.path << " <- '" << e.old_path << "' " << e.blob_id.hex() << ' '
    << e.base_blob_id.hex() << ' ' << std::oct << e.mode << std::dec << " wt=" << e.from_worktree << " size=" << e.size;
  return s.str();
}

struct Opened {
  std::vector<std::string> lines;
  std::string error;
};

Opened open(const wstest::TempRepo& repo, ws::ViewSpec spec, bool fast) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto root = ws::WorkspaceRoot::open(repo.path(), "");
  REQUIRE(root.ok());
  auto v = ws::detail::open_view_with(*r, std::make_shared<const ws::WorkspaceRoot>(std::move(root).value()), spec,
                                      1u << 20, fast);
  Opened out;
  if (!v) {
    out.error = v.error().message;
    return out;
  }
  // The base's modes, "path" -> "100644".
  std::map<std::string, std::string> base_modes;
  for (const auto& l : wstest::lines(repo.git({"ls-tree", "-r", spec.base.empty() ? "HEAD" : spec.base})))
    base_modes[l.substr(l.find('\t') + 1)] = l.substr(0, 6);
  for (ViewEntry e : v->entries()) {
    // libgit2 calls a file modified when the index differs from both HEAD
    // and the working tree, even where the working tree holds HEAD's bytes
    // again (staged, then reverted): the fast path compares the bytes.
    std::ostringstream mode;
    mode << std::oct << e.mode;
    if (!fast && e.status == ws::ChangeStatus::modified && !e.blob_id.empty() && e.blob_id == e.base_blob_id &&
        base_modes[e.path] == mode.str()) {
      if (spec.changes_only && e.path.compare(0, 4, ".ws/") != 0) continue;
      e.status = ws::ChangeStatus::unchanged;
      e.size = 0;
    }
    out.lines.push_back(describe(e));
  }
  return out;
}

// worktree_status of `repo`'s working tree against the commit `rev`,
// hashing through the staged view's content as a working-tree build does.
ws::Result<ws::detail::WorktreeStatus> status_of(const wstest::TempRepo& repo, const std::string& rev,
                                                 bool changes_only,
                                                 std::size_t prestat_min = ws::detail::kPrestatMin) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto view = ws::open_view(*r, nullptr, [] { ws::ViewSpec s; s.source = ws::ViewSource::staged; return s; }());
  REQUIRE(view.ok());
  auto commit = r->resolve_commit(rev);
  REQUIRE(commit.ok());
  return ws::detail::worktree_status(*r, repo.path(), *commit, view->content(), changes_only, prestat_min);
}

// Whether the fast path applies here, and why not.
std::string why_not(const wstest::TempRepo& repo) {
  REQUIRE(ws::WorkspaceRoot::open(repo.path(), "").ok());
  auto st = status_of(repo, "HEAD", false);
  REQUIRE(st.ok());
  return st->applicable ? "" : st->why_not;
}

// The fast path with every tracked file stated up front on all cores, and
// with none: the same entries.
void same_with_and_without_prestat(const wstest::TempRepo& repo, const std::string& base) {
  for (bool changes_only : {false, true}) {
    auto pre = status_of(repo, base.empty() ? "HEAD" : base, changes_only, 0);
    auto walk = status_of(repo, base.empty() ? "HEAD" : base, changes_only, SIZE_MAX);
    REQUIRE(pre.ok());
    REQUIRE(walk.ok());
    CHECK(pre->applicable == walk->applicable);
    std::vector<std::string> a, b;
    for (const auto& e : pre->entries) a.push_back(describe(e));
    for (const auto& e : walk->entries) b.push_back(describe(e));
    CHECK(a == b);
  }
}

void same_views(const wstest::TempRepo& repo, const std::string& base = "") {
  same_with_and_without_prestat(repo, base);
  for (bool changes_only : {false, true}) {
    ws::ViewSpec spec;
    spec.base = base;
    spec.changes_only = changes_only;
    INFO("changes_only " << changes_only << ", base '" << base << "'");
    auto slow = open(repo, spec, false);
    auto fast = open(repo, spec, true);
    CHECK(fast.error == slow.error);
    CHECK(fast.lines == slow.lines);
  }
}

void chmod_x(const wstest::TempRepo& repo, const std::string& rel) {
  fs::permissions(repo.abs(rel), fs::perms::owner_exec, fs::perm_options::add);
}

}  // namespace

TEST_CASE("worktree status: the fast path gives libgit2's view after every kind of edit", "[view][status]") {
  wstest::TempRepo repo;
  repo.write(".gitignore", "*.log\nbuild/\n");
  repo.write(".ws/config.json", "{\"unrouted\": \"warning\"}\n");
  repo.write("agents/AGa.json", "{\"name\": \"A\"}\n");
  repo.write("agents/AGb.json", "{\"name\": \"B\"}\n");
  repo.write("agents/AGc.json", "{\"name\": \"C\"}\n");
  repo.write("agents/sub/AGd.json", "{\"name\": \"D\"}\n");
  repo.write("ai-tools/TLt.cs", "// name: T\n");
  repo.write("tools/run.sh", "#!/bin/sh\n");
  repo.write("docs/a.md", "a\n");
  repo.write("docs/a-b.md", "ab\n");
  repo.write("docs/a/x.md", "x\n");
  repo.write(".secrets/Key", "hunter2\n");
  fs::create_symlink("a.md", repo.abs("docs/link"));
  const std::string first = repo.commit_all("base");
  REQUIRE(why_not(repo) == "");

  INFO("clean");
  same_views(repo);
  {
    INFO("same size, new bytes, at once (racily clean)");
    repo.write("agents/AGa.json", "{\"name\": \"Z\"}\n");
    same_views(repo);
  }
  {
    INFO("touched without a change");
    repo.git({"add", "-A"});
    repo.git({"commit", "-q", "-m", "z"});
    sleep(1);
    fs::last_write_time(repo.abs("agents/AGb.json"), fs::file_time_type::clock::now());
    same_views(repo);
  }
  {
    INFO("deleted file and folder, untracked files, ignored ones, a nested repository");
    repo.remove("agents/AGc.json");
    fs::remove_all(repo.abs("agents/sub"));
    repo.write("notes/new.txt", "n\n");
    repo.write("notes/deep/er/x.txt", "x\n");
    repo.write("notes/skip.log", "s\n");
    repo.write("build/out.json", "{}\n");
    repo.write("nested/repo/file", "f\n");
    REQUIRE(wstest::run({"git", "init", "-q", repo.abs("nested/repo")}).status == 0);
    same_views(repo);
  }
  {
    INFO("renamed by mv and by git mv, mode change, typechange, new and changed links");
    fs::rename(repo.abs("ai-tools/TLt.cs"), repo.abs("ai-tools/TLu.cs"));
    repo.git({"mv", "docs/a-b.md", "docs/a-c.md"});
    chmod_x(repo, "tools/run.sh");
    repo.remove("docs/a.md");
    fs::create_symlink("a-c.md", repo.abs("docs/a.md"));
    fs::remove(repo.abs("docs/link"));
    fs::create_symlink("a/x.md", repo.abs("docs/link"));
    fs::create_symlink("../agents", repo.abs("notes/agents-link"));
    same_views(repo);
  }
  {
    INFO("staged then reverted, staged new then deleted, file to folder");
    repo.write("agents/AGb.json", "{\"name\": \"B2\"}\n");
    repo.git({"add", "agents/AGb.json"});
    repo.write("agents/AGb.json", "{\"name\": \"B\"}\n");
    repo.write("agents/AGnew.json", "{\"name\": \"New\"}\n");
    repo.git({"add", "agents/AGnew.json"});
    repo.remove("agents/AGnew.json");
    repo.remove("docs/a/x.md");
    fs::remove(repo.abs("docs/a"));
    repo.remove("docs/a-c.md");
    repo.write("docs/a-c.md/inner.md", "i\n");
    same_views(repo);
  }
  {
    INFO("secrets: an untracked one and a changed tracked one");
    repo.write(".secrets/Key", "hunter3\n");
    repo.write(".secrets/Other", "s3cret\n");
    same_views(repo);
  }
  {
    INFO("against another base");
    same_views(repo, first);
  }
}

TEST_CASE("worktree status: where libgit2 would answer otherwise, the fast path steps aside", "[view][status]") {
  wstest::TempRepo repo;
  repo.write("agents/AGa.json", "{\"name\": \"A\"}\n");
  repo.commit_all("base");
  REQUIRE(why_not(repo) == "");
  repo.git({"config", "core.autocrlf", "true"});
  CHECK(why_not(repo) == "core.autocrlf");
  same_views(repo);
  repo.git({"config", "core.autocrlf", "input"});
  CHECK(why_not(repo) == "core.autocrlf");
  repo.git({"config", "--unset", "core.autocrlf"});
  repo.git({"config", "core.filemode", "false"});
  CHECK(why_not(repo) == "core.filemode");
  repo.git({"config", "--unset", "core.filemode"});
  repo.write(".git/info/attributes", "* text\n");
  CHECK(why_not(repo).rfind("attributes file '", 0) == 0);
  repo.remove(".git/info/attributes");
  repo.write("agents/.gitattributes", "*.json text eol=crlf\n");  // untracked, still applies
  CHECK(why_not(repo) == "a .gitattributes file");
  same_views(repo);
  repo.git({"add", "agents/.gitattributes"});
  CHECK(why_not(repo) == "a .gitattributes file");
  repo.git({"rm", "-q", "--cached", "agents/.gitattributes"});
  repo.remove("agents/.gitattributes");
  repo.write("new.json", "{}\n");
  repo.git({"add", "-N", "new.json"});
  CHECK(why_not(repo) == "index entry flags");
  same_views(repo);
  repo.git({"rm", "-q", "--cached", "new.json"});
  repo.git({"update-index", "--skip-worktree", "agents/AGa.json"});
  CHECK(why_not(repo) == "index entry flags");
  repo.git({"update-index", "--no-skip-worktree", "agents/AGa.json"});
  CHECK(why_not(repo) == "");
}

TEST_CASE("worktree status: a file removed from the index but kept on disk is unchanged", "[view][status]") {
  // libgit2 calls it deleted and loses the file; the working-tree view is
  // the base plus the files on disk, and these are the base's bytes.
  wstest::TempRepo repo;
  repo.write("agents/AGa.json", "{\"name\": \"A\"}\n");
  repo.write("agents/AGb.json", "{\"name\": \"B\"}\n");
  repo.commit_all("base");
  repo.git({"rm", "-q", "--cached", "agents/AGa.json"});
  REQUIRE(why_not(repo) == "");
  auto fast = open(repo, {}, true);
  REQUIRE(fast.lines.size() == 2);
  CHECK(fast.lines[0].rfind("  agents/AGa.json <- ''", 0) == 0);
  auto slow = open(repo, {}, false);
  REQUIRE(slow.lines.size() == 2);
  CHECK(slow.lines[0].rfind("D agents/AGa.json <- ''", 0) == 0);
}

TEST_CASE("working-tree status: stats taken beside the walk give the walk's own answer", "[worktree-status]") {
  // Enough tracked files for several chunks of the helper threads, changes
  // spread over them: the helpers, coming from the end, take the last
  // chunks' stats while the walk takes the first ones itself.
  wstest::TempRepo repo;
  for (int d = 0; d < 3; ++d)
    for (int f = 0; f < 700; ++f)
      repo.write("kind" + std::to_string(d) + "/F" + std::to_string(1000 + f) + ".json", "{\"n\": " + std::to_string(f) + "}\n");
  repo.commit_all("base");
  repo.write("kind0/F1003.json", "{\"n\": 9}\n");    // same size, other bytes
  repo.write("kind1/F1350.json", "{\"n\": 350, \"x\": 1}\n");
  repo.remove("kind2/F1699.json");
  repo.write("kind2/F1690.json", "{\"n\": 6}\n\n");
  repo.write("kind2/untracked.json", "{}\n");
  same_with_and_without_prestat(repo, "");
  auto st = status_of(repo, "HEAD", true, 0);
  REQUIRE(st.ok());
  REQUIRE(st->applicable);
  std::vector<std::string> changed;
  for (const auto& e : st->entries) changed.push_back(std::string(1, static_cast<char>(e.status)) + " " + e.path);
  CHECK(changed == std::vector<std::string>{"M kind0/F1003.json", "M kind1/F1350.json", "M kind2/F1690.json",
                                            "D kind2/F1699.json", "A kind2/untracked.json"});
  // Whether the helpers got anywhere before the walk depends on the
  // scheduler; with one core there are none. Never more than the tracked files.
  INFO("stated ahead: " << st->stated_ahead);
  CHECK(st->stated_ahead <= 2100);
}

TEST_CASE("working-tree status: a large folder is walked in the index's order", "[worktree-status]") {
  // Over 256 names, so the folder is sorted by prefix without comparisons:
  // names sharing their first eight bytes ("samepref..."), names shorter
  // than eight, and folders whose names with '/' fall between files'.
  wstest::TempRepo repo;
  for (int f = 0; f < 300; ++f) {
    std::string n = std::to_string(f);
    repo.write("big/samepref" + n + ".json", n + "\n");
    repo.write("big/" + std::string(1, static_cast<char>('a' + f % 26)) + n, n + "\n");
  }
  for (const char* p : {"big/a.json", "big/a/x", "big/a0", "big/samepref/x", "big/samepref-/y", "big/samepref0/z",
                        "big/s.", "big/s/t"})
    repo.write(p, "x\n");
  repo.commit_all("base");
  auto clean = status_of(repo, "HEAD", true, SIZE_MAX);
  REQUIRE(clean.ok());
  REQUIRE(clean->applicable);
  CHECK(clean->entries.empty());
  repo.write("big/samepref7.json", "changed\n");
  repo.remove("big/a/x");
  repo.write("big/samepref00", "new\n");
  same_views(repo);
}

// The listing's hard-link refusal comes from the walk's own stat: a tracked
// file and an untracked one linked to it, and one linked from outside the
// tree, each with its link count; a symlink and a plain file never. Both
// with the helpers' stats and with the walk's own.
TEST_CASE("working-tree status: the walk names every file with several links", "[worktree-status]") {
  wstest::TempRepo repo;
  repo.write("kind0/plain.json", "{}\n");
  repo.write("kind0/tracked.json", "{\"n\": 1}\n");
  repo.commit_all("base");
  const fs::path root = repo.path();
  fs::create_hard_link(root / "kind0/tracked.json", root / "kind0/untracked.json");
  wstest::TempRepo outside;
  outside.write("elsewhere.json", "{}\n");
  fs::create_directories(root / "kind1");
  fs::create_hard_link(outside.path() + "/elsewhere.json", root / "kind1/linked.json");
  fs::create_hard_link(outside.path() + "/elsewhere.json", root / "kind1/linked-again.json");
  fs::create_symlink("plain.json", root / "kind0/link.json");
  for (std::size_t prestat_min : {std::size_t(0), SIZE_MAX}) {
    auto st = status_of(repo, "HEAD", false, prestat_min);
    REQUIRE(st.ok());
    REQUIRE(st->applicable);
    std::vector<std::pair<std::string, std::uint64_t>> want{
        {"kind0/tracked.json", 2}, {"kind0/untracked.json", 2}, {"kind1/linked-again.json", 3}, {"kind1/linked.json", 3}};
    auto got = st->hard_links;
    std::sort(got.begin(), got.end());
    CHECK(got == want);
  }
}
