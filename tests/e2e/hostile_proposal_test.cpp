// Hostile proposals: commits and trees made by hand, past git's own checks
// (tests/support/hand_made.h), planted as a session's current proposal.
// ws-apply must refuse each with one line naming the path and the rule,
// leave the branch, the index and refs/ws/applied as they were, and leave
// a repository `git fsck --strict` passes. ws-commit refuses the same in
// the working tree and the index. See ws-apply(1) and ws-commit(1).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "support/hand_made.h"
#include "support/process.h"
#include "support/proposal_tools.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::HandMadeProposal;
using wstest::RawEntry;
using wstest::RunResult;
using wstest::TempRepo;

using wstest::rev;
using wstest::ws;
namespace {

const std::string kMode = "; a proposal holds regular files (100644, 100755) and folders only";

// A workspace of one agent, a README and a config that lets files outside
// the kinds' folders through (so a deep docs/ file builds clean), with the
// blobs and trees the cases are made of.
struct Workspace {
  TempRepo repo;
  std::string base, base_tree, alpha, beta;

  Workspace() {
    repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
    repo.write("README.md", "Support desk\n");
    repo.write("agents/a.json", "{\n  \"name\": \"Alpha\"\n}\n");
    base = repo.commit_all("seed");
    base_tree = rev(repo, "HEAD^{tree}");
    alpha = rev(repo, "HEAD:agents/a.json");
    beta = wstest::write_blob(repo, "{\n  \"name\": \"Beta\"\n}\n");
  }

  // The base with its agents/ folder replaced by a tree of `entries`, raw.
  std::string with_agents(const std::vector<RawEntry>& entries) const {
    return wstest::tree_with(repo, base_tree, "", {"40000", "agents", wstest::write_raw_tree(repo, entries)});
  }
  // The base with agents/b.json added with mode `mode`, as written.
  std::string with_beta(const std::string& mode, const std::string& id = {}) const {
    return with_agents({{"100644", "a.json", alpha}, {mode, "b.json", id.empty() ? beta : id}});
  }
  // The base with `entry` added at its top.
  std::string with_top(const RawEntry& entry) const { return wstest::tree_with(repo, base_tree, "", entry); }
};

// What a refused apply must leave as it was.
struct Untouched {
  std::string branch, index, refs;
  explicit Untouched(const TempRepo& repo)
      : branch(rev(repo, "refs/heads/main")),
        index(repo.read(".git/index")),
        refs(repo.git({"for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/", "refs/ws/applied/"})) {}
  bool operator==(const Untouched& o) const { return branch == o.branch && index == o.index && refs == o.refs; }
};

// Plants `tree` as the default session's proposal on the branch tip,
// applies it with `extra` options, and checks the refusal: exit 1, exactly
// one line "proposal <id> refused: <why>", nothing moved, and git fsck
// --strict clean once the hand-made objects are gone (forget_proposal).
void expect_refused(const Workspace& w, const std::string& tree, const std::string& why,
                    const std::vector<std::string>& extra = {}) {
  const TempRepo& repo = w.repo;
  std::string id = wstest::plant_proposal(repo, HandMadeProposal{tree, rev(repo, "refs/heads/main")});
  Untouched before(repo);
  std::vector<std::string> args = extra;
  args.push_back(id);
  RunResult r = ws(repo, "ws-apply", args);
  CHECK(r.status == 1);
  CHECK(r.err == "ws-apply: proposal " + id.substr(0, 12) + " refused: " + why + "\n");
  CHECK(r.out == "");
  CHECK(Untouched(repo) == before);
  CHECK(repo.git({"for-each-ref", "refs/ws/applied/"}) == "");
  wstest::forget_proposal(repo);
  CHECK(wstest::fsck_problems(repo.path()) == "");
}

std::string refused_mode(const std::string& path, const std::string& mode, const std::string& what) {
  return "refused path '" + path + "': mode " + mode + " is " + what + kMode;
}

// `n` nested folders named `name` around `inner`, which sits in the deepest.
std::string nest(const TempRepo& repo, const std::string& name, int n, const RawEntry& inner) {
  std::string tree = wstest::write_raw_tree(repo, {inner});
  for (int i = 1; i < n; ++i) tree = wstest::write_raw_tree(repo, {{"40000", name, tree}});
  return tree;
}

}  // namespace

TEST_CASE("hostile proposal: every mode but 100644, 100755 and 40000 is refused by its type bits",
          "[hostile][proposal]") {
  Workspace w;
  struct Case {
    std::string mode, shown, what;
    bool commit_id = false;  // a gitlink names a commit
  };
  const std::vector<Case> cases{
      {"120000", "120000", "a symlink"},
      {"120644", "120644", "a symlink"},
      {"120755", "120755", "a symlink"},
      {"160000", "160000", "a submodule", true},
      {"160644", "160644", "a submodule", true},
      {"170000", "170000", "not a file type git knows"},
      {"140000", "140000", "a socket"},
      {"60000", "060000", "a block device"},
      {"20000", "020000", "a character device"},
      {"10000", "010000", "a FIFO"},
      {"644", "000644", "of no file type"},
      {"100600", "100600", "a regular file with permissions git does not write"},
      {"100664", "100664", "a regular file with permissions git does not write"},
      {"100000", "100000", "a regular file with permissions git does not write"},
      {"100777", "100777", "a regular file with permissions git does not write"},
      {"1100644", "1100644", "not a file type git knows"},
  };
  for (const auto& c : cases) {
    INFO("mode " << c.mode);
    expect_refused(w, w.with_beta(c.mode, c.commit_id ? w.base : ""), refused_mode("agents/b.json", c.shown, c.what));
  }
  // A mode written with leading zeros reads as the plain one to libgit2;
  // git fsck refuses the padding, and so does ws-apply.
  expect_refused(w, w.with_beta("0100644"),
                 "refused path 'agents/b.json': mode written as '0100644' is zero-padded; git writes '100644'");
  // Folders: 40000 exactly, never with permission bits or padding.
  std::string docs = wstest::write_raw_tree(w.repo, {{"100644", "x.md", w.beta}});
  expect_refused(w, w.with_top({"40755", "docs", docs}), refused_mode("docs", "040755", "a folder with permission bits"));
  expect_refused(w, w.with_top({"040000", "docs", docs}),
                 "refused path 'docs': mode written as '040000' is zero-padded; git writes '40000'");
  // Deep in the tree, beside unchanged files, the same.
  std::string deep = wstest::tree_with(w.repo, w.base_tree, "docs/guides", {"120000", "link.md", w.beta});
  expect_refused(w, deep, refused_mode("docs/guides/link.md", "120000", "a symlink"));

  // 100755 by hand lands as the very tree git would write, bit kept.
  std::string tree = w.with_beta("100755");
  std::string id = wstest::plant_proposal(w.repo, HandMadeProposal{tree, w.base});
  RunResult r = ws(w.repo, "ws-apply", {id});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(rev(w.repo, "refs/heads/main^{tree}") == tree);
  CHECK(w.repo.git({"ls-tree", "refs/heads/main", "agents/b.json"}) == "100755 blob " + w.beta + "\tagents/b.json\n");
  CHECK(w.repo.git({"ls-files", "-s", "agents/b.json"}) == "100755 " + w.beta + " 0\tagents/b.json\n");
  CHECK(rev(w.repo, "refs/ws/applied/" + id) == rev(w.repo, "refs/heads/main"));
}

TEST_CASE("hostile proposal: duplicate, unsorted, empty and slashed names are refused, never sorted",
          "[hostile][proposal]") {
  Workspace w;
  std::string folder = wstest::write_raw_tree(w.repo, {{"100644", "c.json", w.beta}});
  const std::string twice = "its folder names it twice; a tree holds each name once";
  const std::string order = "'); git sorts a tree's names bytewise";
  expect_refused(w, w.with_agents({{"100644", "a.json", w.alpha}, {"100644", "b.json", w.beta}, {"100644", "b.json", w.alpha}}),
                 "refused path 'agents/b.json': " + twice);
  expect_refused(w, w.with_agents({{"100644", "a.json", w.alpha}, {"100644", "b", w.beta}, {"40000", "b", folder}}),
                 "refused path 'agents/b': " + twice);
  // A file and a folder of one name, with a name between them in git's order.
  expect_refused(w,
                 w.with_agents({{"100644", "a.json", w.alpha}, {"100644", "b", w.beta}, {"100644", "b.json", w.beta},
                                {"40000", "b", folder}}),
                 "refused path 'agents/b': " + twice);
  expect_refused(w, w.with_agents({{"100644", "c.json", w.beta}, {"100644", "a.json", w.alpha}}),
                 "refused path 'agents/a.json': out of git's order in its folder (after 'agents/c.json" + order);
  // Bytewise by name alone "b" < "b.json"; git sorts a folder as "b/", after it.
  expect_refused(w, w.with_agents({{"100644", "a.json", w.alpha}, {"40000", "b", folder}, {"100644", "b.json", w.beta}}),
                 "refused path 'agents/b.json': out of git's order in its folder (after 'agents/b" + order);
  expect_refused(w, w.with_agents({{"100644", "a.json", w.alpha}, {"100644", "x/b.json", w.beta}}),
                 "refused path 'agents/x/b.json': the entry's name holds a '/'; each entry of a tree names one file "
                 "or folder");
  expect_refused(w, w.with_agents({{"100644", "", w.beta}, {"100644", "a.json", w.alpha}}),
                 "refused path 'agents': it holds an entry with an empty name");
  expect_refused(w, w.with_top({"40000", "docs", wstest::write_raw_tree(w.repo, std::vector<RawEntry>{})}),
                 "refused path 'docs': an empty folder, which git never writes");
}

TEST_CASE("hostile proposal: '.', '..', '.git' and control characters in names are refused by the path policy",
          "[hostile][proposal]") {
  Workspace w;
  const std::string dots = "dot-component ('.' and '..' are not allowed); name the file by its plain "
                           "repository-relative path";
  const std::string git_dir = "git-dir (a component is a spelling of '.git', git's own directory); rename that "
                              "component";
  std::string hooks = wstest::write_raw_tree(w.repo, {{"100755", "post-checkout", w.beta}});
  expect_refused(w, w.with_agents({{"100644", ".", w.beta}, {"100644", "a.json", w.alpha}}),
                 "refused path 'agents/.': " + dots);
  expect_refused(w, w.with_agents({{"100644", "..", w.beta}, {"100644", "a.json", w.alpha}}),
                 "refused path 'agents/..': " + dots);
  expect_refused(w, w.with_top({"40000", "..", wstest::write_raw_tree(w.repo, {{"100644", "x", w.beta}})}),
                 "refused path '..': " + dots);
  expect_refused(w, w.with_top({"40000", ".git", wstest::write_raw_tree(w.repo, {{"40000", "hooks", hooks}})}),
                 "refused path '.git': " + git_dir);
  expect_refused(w, w.with_top({"40000", ".GIT", wstest::write_raw_tree(w.repo, {{"40000", "hooks", hooks}})}),
                 "refused path '.GIT': " + git_dir);
  expect_refused(w, w.with_agents({{"100644", ".git", w.beta}, {"100644", "a.json", w.alpha}}),
                 "refused path 'agents/.git': " + git_dir);
  expect_refused(w, w.with_agents({{"100644", "a.json", w.alpha}, {"100644", "git~1", w.beta}}),
                 "refused path 'agents/git~1': " + git_dir);
  expect_refused(w, w.with_agents({{"100644", "a.json", w.alpha}, {"100644", "b\x1b[2K.json", w.beta}}),
                 "refused path 'agents/b\\x1b[2K.json': control-char (NUL and control characters are not allowed in "
                 "names); rename the file");
}

TEST_CASE("hostile proposal: missing objects, objects of the wrong type and malformed trees are refused",
          "[hostile][proposal]") {
  Workspace w;
  const std::string missing(40, '1');
  const std::string empty_tree = wstest::write_raw_tree(w.repo, std::vector<RawEntry>{});
  expect_refused(w, w.with_beta("100644", missing),
                 "refused path 'agents/b.json': its blob 111111111111 is missing from the object database");
  expect_refused(w, w.with_beta("100644", empty_tree),
                 "refused path 'agents/b.json': mode 100644 names a file, but object " + empty_tree.substr(0, 12) +
                     " is a tree");
  expect_refused(w, w.with_top({"40000", "docs", w.beta}),
                 "refused path 'docs': mode 040000 names a folder, but object " + w.beta.substr(0, 12) + " is a blob");
  expect_refused(w, w.with_top({"40000", "docs", missing}),
                 "refused path 'docs': its tree object 111111111111 is missing from the object database");
  // An entry cut short: a name with no NUL and no id after it.
  std::string cut = wstest::write_raw_tree(w.repo, wstest::raw_tree_bytes({{"100644", "a.json", w.alpha}}) + "100644 b.json");
  expect_refused(w, w.with_top({"40000", "agents", cut}),
                 "refused path 'agents': its tree object " + cut.substr(0, 12) + " is malformed after 1 entries");
  std::string not_octal = wstest::write_raw_tree(w.repo, {{"100644", "a.json", w.alpha}, {"10064x", "b.json", w.beta}});
  expect_refused(w, w.with_top({"40000", "agents", not_octal}),
                 "refused path 'agents': its tree object " + not_octal.substr(0, 12) + " is malformed after 1 entries");
}

TEST_CASE("hostile proposal: nesting past the depth cap is refused, at the cap it lands", "[hostile][proposal]") {
  Workspace w;
  std::string x = wstest::write_blob(w.repo, "deep\n");
  // docs/ + 255 folders + x.md: 257 components, one past the cap.
  std::string too_deep = nest(w.repo, "d", 256, {"100644", "x.md", x});
  std::string path = "docs/";
  for (int i = 0; i < 255; ++i) path += "d/";
  path += "x.md";
  expect_refused(w, w.with_top({"40000", "docs", too_deep}),
                 "refused path '" + path + "': too-long (over 4096 bytes, a component over 255, or over 256 "
                 "components); use shorter names and fewer folders");
  // One folder less: 256 components, the deepest a path may be.
  std::string at_cap = w.with_top({"40000", "docs", nest(w.repo, "d", 255, {"100644", "x.md", x})});
  std::string id = wstest::plant_proposal(w.repo, HandMadeProposal{at_cap, w.base});
  RunResult r = ws(w.repo, "ws-apply", {id});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(rev(w.repo, "refs/heads/main^{tree}") == at_cap);
}

TEST_CASE("hostile proposal: a stale one is refused for its tree before --rebase moves anything",
          "[hostile][proposal]") {
  Workspace w;
  std::string tree = w.with_beta("120644");
  std::string id = wstest::plant_proposal(w.repo, HandMadeProposal{tree, w.base});
  w.repo.write("README.md", "Support desk, moved on\n");
  std::string tip = w.repo.commit_all("moved on");
  Untouched before(w.repo);
  RunResult r = ws(w.repo, "ws-apply", {"--rebase", id});
  CHECK(r.status == 1);
  CHECK(r.err == "ws-apply: proposal " + id.substr(0, 12) + " refused: " +
                     refused_mode("agents/b.json", "120644", "a symlink") + "\n");
  CHECK(Untouched(w.repo) == before);
  CHECK(rev(w.repo, "refs/heads/main") == tip);
  wstest::forget_proposal(w.repo);
  CHECK(wstest::fsck_problems(w.repo.path()) == "");
}

TEST_CASE("the e2e helpers run git fsck --strict after every ws-apply that applies", "[hostile][support]") {
  const std::string apply = wstest::tool("ws-apply");
  CHECK(wstest::applies_proposal({apply, "0123456789abc"}));
  CHECK(wstest::applies_proposal({apply, "--rebase", "--branch", "main", "0123456789abc"}));
  CHECK(wstest::applies_proposal({apply, "-C", "sub", "--json", "0123456789abc"}));
  for (const char* other : {"--list", "--show", "--show=0123456789abc", "--reject", "--help", "--version"})
    CHECK_FALSE(wstest::applies_proposal({apply, other, "0123456789abc"}));
  CHECK_FALSE(wstest::applies_proposal({wstest::tool("ws-commit"), "-m", "x"}));
  CHECK_FALSE(wstest::applies_proposal({"git", "apply", "x.patch"}));

  // The check sees what git fsck --strict only warns about, with -C too.
  TempRepo repo;
  wstest::RunOptions o;
  o.cwd = repo.path();
  CHECK(wstest::fsck_problems({apply, "0123456789abc"}, o) == "");
  std::string blob = wstest::write_blob(repo, "x\n");
  std::string bad = wstest::write_raw_tree(repo, {{"100600", "x", blob}});
  CHECK(wstest::fsck_problems({apply, "0123456789abc"}, o) ==
        "warning in tree " + bad + ": badFilemode: contains bad file modes\n");
  wstest::RunOptions parent;
  parent.cwd = repo.path() + "/..";
  std::string name = repo.path().substr(repo.path().rfind('/') + 1);
  CHECK(wstest::fsck_problems({apply, "-C", name, "0123456789abc"}, parent) ==
        "warning in tree " + bad + ": badFilemode: contains bad file modes\n");
}

TEST_CASE("ws-commit --staged refuses an index entry of a mode git does not write or a path named twice, and prints "
          "the modes it writes",
          "[hostile][commit]") {
  Workspace w;
  w.repo.write("agents/b.json", "{\n  \"name\": \"Beta\"\n}\n");
  w.repo.git({"add", "agents/b.json"});
  const std::string staged = w.repo.read(".git/index");
  struct Case {
    std::uint32_t mode;
    std::string shown, what;
  };
  const std::vector<Case> cases{
      {0100600, "100600", "a regular file with permissions git does not write"},
      {0100664, "100664", "a regular file with permissions git does not write"},
      {0120644, "120644", "a symlink"},
      {0140000, "140000", "a socket"},
  };
  for (const auto& c : cases) {
    INFO(c.shown);
    // git update-index writes only the modes git knows; the index file
    // itself can hold any, so this one is rewritten by hand.
    w.repo.write(".git/index", staged);
    wstest::rewrite_index_entry(w.repo, "agents/b.json", c.mode);
    REQUIRE(w.repo.git({"ls-files", "-s", "agents/b.json"}) == c.shown + " " + w.beta + " 0\tagents/b.json\n");
    std::string index = w.repo.read(".git/index");
    RunResult r = ws(w.repo, "ws-commit", {"--staged", "-m", "Add Beta"});
    CHECK(r.status == 1);
    CHECK(r.err == "ws-commit: " + refused_mode("agents/b.json", c.shown, c.what) + "\n");
    CHECK(r.out == "");
    CHECK(w.repo.read(".git/index") == index);
    CHECK(w.repo.git({"for-each-ref", "refs/ws/"}) == "");
  }
  // One path named twice in the index.
  w.repo.write(".git/index", staged);
  w.repo.write("agents/c.json", "{\n  \"name\": \"Gamma\"\n}\n");
  w.repo.git({"add", "agents/c.json"});
  wstest::rewrite_index_entry(w.repo, "agents/c.json", 0100644, "agents/b.json");
  REQUIRE(w.repo.git({"ls-files", "agents"}) == "agents/a.json\nagents/b.json\nagents/b.json\n");
  {
    std::string index = w.repo.read(".git/index");
    RunResult r = ws(w.repo, "ws-commit", {"--staged", "-m", "Add Beta twice"});
    CHECK(r.status == 1);
    CHECK(r.err == "ws-commit: refused path 'agents/b.json': named twice in the changes; a tree holds each name once\n");
    CHECK(w.repo.read(".git/index") == index);
    CHECK(w.repo.git({"for-each-ref", "refs/ws/"}) == "");
  }

  // What it prints is what it writes: 100755 in the stat and in the tree.
  w.repo.remove("agents/c.json");
  w.repo.write(".git/index", staged);
  w.repo.git({"update-index", "--chmod=+x", "agents/b.json"});
  RunResult r = ws(w.repo, "ws-commit", {"--staged", "-m", "Add Beta"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\n create mode 100755 agents/b.json\n") != std::string::npos);
  std::string id = rev(w.repo, "refs/ws/proposals/default");
  CHECK(w.repo.git({"ls-tree", id, "agents/b.json"}) == "100755 blob " + w.beta + "\tagents/b.json\n");
}

TEST_CASE("ws-commit refuses a working-tree file nested past the depth cap", "[hostile][commit]") {
  Workspace w;
  std::string path = "docs";
  for (int i = 0; i < 255; ++i) path += "/d";
  path += "/x.md";  // 257 components
  w.repo.write(path, "deep\n");
  RunResult r = ws(w.repo, "ws-commit", {"-m", "Deep"});
  CHECK(r.status == 1);
  CHECK(r.err == path + ": error[WS004]: refused path '" + path +
                     "': too-long (over 4096 bytes, a component over 255, or over 256 components); use shorter "
                     "names and fewer folders\n1 error in 1 file (1 file changed)\n"
                     "ws-commit: refused: the changeset does not build; no proposal was written\n");
  CHECK(w.repo.git({"for-each-ref", "refs/ws/"}) == "");
}

TEST_CASE("ws-commit --rev refuses a hand-made tree that ws-apply would refuse, rather than staging it canonical",
          "[hostile][commit]") {
  Workspace w;
  struct Case {
    std::string tree, why;
  };
  const std::vector<Case> cases{
      {w.with_agents({{"100644", "c.json", w.beta}, {"100644", "a.json", w.alpha}}),
       "refused path 'agents/a.json': out of git's order in its folder (after 'agents/c.json'); git sorts a tree's "
       "names bytewise"},
      {w.with_beta("0100644"),
       "refused path 'agents/b.json': mode written as '0100644' is zero-padded; git writes '100644'"},
      {w.with_beta("100664"), refused_mode("agents/b.json", "100664", "a regular file with permissions git does not write")},
  };
  for (const auto& c : cases) {
    INFO(c.why);
    std::string commit = chomp(w.repo.git({"commit-tree", c.tree, "-p", w.base, "-m", "Hand-made"}));
    RunResult r = ws(w.repo, "ws-commit", {"--rev", commit, "-m", "Stage it"});
    CHECK(r.status == 1);
    CHECK(r.err == "ws-commit: " + c.why + "\n");
    CHECK(r.out == "");
    CHECK(w.repo.git({"for-each-ref", "refs/ws/"}) == "");
  }
  // The same changes, as git would write them, stage.
  std::string good = chomp(w.repo.git({"commit-tree", w.with_beta("100644"), "-p", w.base, "-m", "Good"}));
  RunResult r = ws(w.repo, "ws-commit", {"--rev", good, "-m", "Stage it"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(rev(w.repo, "refs/ws/proposals/default^{tree}") == rev(w.repo, good + "^{tree}"));
}
