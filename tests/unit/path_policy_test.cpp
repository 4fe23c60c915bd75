// Path policy: one row per refusal, several spellings each, plus paths that
// must pass, the differences between policies, and exact messages.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "confined_open.h"
#include "libcheck/path_policy.h"

using ws::check_path;
using ws::PathRule;

namespace {

struct Row {
  std::string path;
  PathRule rule;
};

std::string bytes(const char* s, size_t n) { return std::string(s, n); }

// "c/c/.../c": `n` components `c`.
std::string repeat_component(const std::string& c, int n) {
  std::string p = c;
  for (int i = 1; i < n; ++i) p += "/" + c;
  return p;
}

const std::vector<Row>& refusal_table() {
  static const std::vector<Row> rows = {
      {"", PathRule::empty},

      {"\\\\server\\share\\a.json", PathRule::unc_prefix},
      {"//server/share/a.json", PathRule::unc_prefix},
      {"\\\\?\\C:\\Windows\\win.ini", PathRule::unc_prefix},
      {"\\\\.\\pipe\\x", PathRule::unc_prefix},
      {"//?/C:/x", PathRule::unc_prefix},
      {"/\\server\\x", PathRule::unc_prefix},

      {"C:", PathRule::drive_prefix},
      {"c:foo", PathRule::drive_prefix},
      {"C:/Windows/win.ini", PathRule::drive_prefix},
      {"C:\\Windows\\win.ini", PathRule::drive_prefix},
      {"z:", PathRule::drive_prefix},

      {"/etc/passwd", PathRule::absolute},
      {"/", PathRule::absolute},
      {"/a", PathRule::absolute},

      {".", PathRule::dot_component},
      {"..", PathRule::dot_component},
      {"a/../b", PathRule::dot_component},
      {"./a", PathRule::dot_component},
      {"a/.", PathRule::dot_component},
      {"a/./b", PathRule::dot_component},
      {"../../etc/passwd", PathRule::dot_component},
      {"a//b", PathRule::dot_component},
      {"a/", PathRule::dot_component},
      {"agents/", PathRule::dot_component},

      {"a\\b", PathRule::backslash},
      {"..\\..\\etc\\passwd", PathRule::backslash},
      {"\\x", PathRule::backslash},
      {"agents\\a.json", PathRule::backslash},

      {bytes("a\0b", 3), PathRule::control_char},
      {bytes("\0", 1), PathRule::control_char},
      {"a\nb", PathRule::control_char},
      {"a\tb", PathRule::control_char},
      {"a\rb", PathRule::control_char},
      {"\x1b[31mred", PathRule::control_char},
      {"\x01", PathRule::control_char},
      {"del\x7f", PathRule::control_char},

      {".git", PathRule::git_dir},
      {".git/config", PathRule::git_dir},
      {".GIT/config", PathRule::git_dir},
      {"a/.Git/hooks/pre-commit", PathRule::git_dir},
      {"a/b/.git", PathRule::git_dir},
      {".git.", PathRule::git_dir},
      {".git ", PathRule::git_dir},
      {".git. . /config", PathRule::git_dir},
      {"git~1", PathRule::git_dir},
      {"GIT~1/config", PathRule::git_dir},
      {"git~1.", PathRule::git_dir},
      {".git::$INDEX_ALLOCATION/config", PathRule::git_dir},
      {".git:stream", PathRule::git_dir},
      {".git. :$DATA", PathRule::git_dir},
      {".g\u200cit/config", PathRule::git_dir},       // HFS+ ignores zero-width non-joiner
      {"\xef\xbb\xbf.GIT/config", PathRule::git_dir},  // and a byte-order mark

      {".secrets/api-key", PathRule::secret},
      {".secrets/a/b", PathRule::secret},
      {".SECRETS/api-key", PathRule::secret},
      {".secrets./api-key", PathRule::secret},

      {std::string(4097, 'a'), PathRule::too_long},
      {std::string(256, 'a'), PathRule::too_long},
      {"agents/" + std::string(256, 'x') + ".json", PathRule::too_long},
      {repeat_component("a", ws::kMaxPathDepth + 1), PathRule::too_long},
      {repeat_component("agents", ws::kMaxPathDepth) + "/x.json", PathRule::too_long},
  };
  return rows;
}

// "a/a/.../a": many short components, 4097 bytes in all.
std::string long_path_of_short_components() {
  std::string p;
  while (p.size() < 4095) p += "a/";
  p += "a";
  return p;
}

}  // namespace

TEST_CASE("path policy refuses every listed kind with the right rule", "[path_policy]") {
  for (const Row& row : refusal_table()) {
    INFO("path: '" << ws::detail::printable_path(row.path) << "', expected rule "
                   << ws::path_rule_name(row.rule));
    auto rej = check_path(row.path, ws::read_policy());
    REQUIRE(rej.has_value());
    CHECK(rej->rule == row.rule);
    CHECK(rej->path == row.path);
    // Every policy refuses what the read policy refuses.
    auto w = check_path(row.path, ws::write_policy());
    REQUIRE(w.has_value());
    CHECK(w->rule == row.rule);
  }
  std::string many = long_path_of_short_components();
  REQUIRE(many.size() == 4097);
  auto rej = check_path(many, ws::read_policy());
  REQUIRE(rej);
  CHECK(rej->rule == PathRule::too_long);
}

TEST_CASE("path policy accepts plain paths, including near-misses of refused names", "[path_policy]") {
  const std::vector<std::string> ok = {
      "agents/a.json",
      ".ws/kinds/x.json",
      "a/.gitignore",
      ".gitignore",
      ".gitmodules",
      ".gitattributes",
      "x.git",
      "gitx",
      ".github/workflows/ci.yml",
      ".git~1",     // not the short name: that is "git~1"
      "git~2",      // git only refuses the first short name
      ".gitx",
      "a.git/b",
      "ab:c",       // a colon is fine after the first byte pair
      ".secrets",   // the directory's name alone reveals nothing
      "secrets/x",
      "x/.secrets/y",  // only the top-level folder holds secrets
      "...",
      "%2e%2e%2fetc%2fpasswd",
      "caf\xc3\xa9/men\xc3\xba.json",
      std::string(255, 'a'),
  };
  for (const std::string& p : ok) {
    INFO("path: '" << ws::detail::printable_path(p) << "'");
    auto rej = check_path(p, ws::read_policy());
    CHECK(std::string(rej ? ws::path_rule_name(rej->rule) : "accepted") == "accepted");
  }
  // At both limits at once: 4096 bytes in kMaxPathDepth components.
  std::string at_limit = repeat_component(std::string(15, 'a'), ws::kMaxPathDepth) + "b";
  REQUIRE(at_limit.size() == 4096);
  CHECK_FALSE(check_path(at_limit, ws::read_policy()));
  CHECK(ws::is_plain_path(at_limit));
  CHECK_FALSE(ws::is_plain_path(repeat_component("a", ws::kMaxPathDepth + 1)));
}

TEST_CASE("is_git_dir_component matches git's spellings only", "[path_policy]") {
  for (const char* c : {".git", ".GiT", ".git.", ".git ", ".git...", ".git . ", "git~1", "GIT~1", "Git~1 .",
                        ".git::$INDEX_ALLOCATION", ".git:x", ".git\\x", ".\xe2\x80\x8dgit", ".gi\xe2\x81\xaft"})
    CHECK(ws::is_git_dir_component(c));
  for (const char* c : {".gitignore", ".git-x", ".gitx", "git", "git~", "git~10", "git~2", "x.git", ".g it",
                        ".g\xe2\x80\x8bit" /* U+200B is not ignored by HFS+ */, ""})
    CHECK_FALSE(ws::is_git_dir_component(c));
}

TEST_CASE("policies differ in secrets and protected paths", "[path_policy]") {
  SECTION("read policy lists secret names only when asked to") {
    auto rej = check_path(".secrets/api-key", ws::read_policy());
    REQUIRE(rej);
    CHECK(rej->rule == PathRule::secret);

    ws::PathPolicy names = ws::read_policy();
    names.allow_secret_names = true;
    CHECK_FALSE(check_path(".secrets/api-key", names));
    // Allowing secret names relaxes nothing else.
    auto git = check_path(".secrets/../.git/config", names);
    REQUIRE(git);
    CHECK(git->rule == PathRule::dot_component);
  }

  SECTION("write and proposal policies protect the configured prefixes") {
    for (const ws::PathPolicy& policy :
         {ws::write_policy({"ops/", ".ws/config.json"}), ws::proposal_policy({"ops/", ".ws/config.json"})}) {
      for (const char* p : {"ops/deploy.json", "ops", "OPS/x", ".ws/config.json", ".WS/Config.json"}) {
        INFO(p);
        auto rej = check_path(p, policy);
        REQUIRE(rej);
        CHECK(rej->rule == PathRule::protected_path);
      }
      for (const char* p : {"opsx/a.json", "agents/ops/a.json", ".ws/config.json.bak", ".ws/kinds/x.json"}) {
        INFO(p);
        CHECK_FALSE(check_path(p, policy));
      }
      // Secrets come before protection in the rule order.
      auto rej = check_path(".secrets/k", policy);
      REQUIRE(rej);
      CHECK(rej->rule == PathRule::secret);
    }
    // The read policy protects nothing: reading a protected file is fine.
    CHECK_FALSE(check_path("ops/deploy.json", ws::read_policy()));
    CHECK_FALSE(check_path(".ws/config.json", ws::read_policy()));
  }

  SECTION("a protected entry '**/NAME' protects NAME in every folder, and only that name") {
    const ws::PathPolicy policy = ws::write_policy({"**/.gitattributes", "**/build/"});
    for (const char* p : {".gitattributes", "agents/.gitattributes", "a/b/c/.GitAttributes", "build",
                          "build/x.json", "docs/build/x.json", "docs/BUILD"}) {
      INFO(p);
      auto rej = check_path(p, policy);
      REQUIRE(rej);
      CHECK(rej->rule == PathRule::protected_path);
    }
    for (const char* p : {"x.gitattributes", "agents/.gitattributes.bak", "agents/my.gitattributes/x",
                          "builder/x.json", "docs/rebuild/x.json", "**/.gitattributes/x"}) {
      INFO(p);
      CHECK_FALSE(breaks_rule(PathRule::protected_path, p, policy));
    }
    // A plain entry stays rooted.
    CHECK_FALSE(check_path("docs/.gitmodules", ws::write_policy({".gitmodules"})));
    CHECK(check_path(".gitmodules", ws::write_policy({".gitmodules"})));
  }

  SECTION("write policy protects .secrets/ even when secret names are allowed") {
    ws::PathPolicy p = ws::write_policy();
    p.allow_secret_names = true;
    auto rej = check_path(".secrets/k", p);
    REQUIRE(rej);
    CHECK(rej->rule == PathRule::protected_path);
  }
}

TEST_CASE("path rejection messages are exact and one line", "[path_policy]") {
  auto msg = [](std::string_view p) {
    auto rej = check_path(p, ws::write_policy({"ops/"}));
    REQUIRE(rej);
    return rej->message();
  };
  CHECK(msg("a/../b") ==
        "refused path 'a/../b': dot-component ('.' and '..' are not allowed); "
        "name the file by its plain repository-relative path");
  CHECK(msg("a//b") ==
        "refused path 'a//b': dot-component (empty components, as in 'a//b' or a trailing '/', are not allowed); "
        "name the file by its plain repository-relative path");
  CHECK(msg(".GIT/config") ==
        "refused path '.GIT/config': git-dir (a component is a spelling of '.git', git's own directory); "
        "rename that component");
  CHECK(msg("ops/x") == "refused path 'ops/x': protected-path (the workspace protects this path); "
                        "leave it out of the change");
  CHECK(msg("/etc/passwd") ==
        "refused path '/etc/passwd': absolute (paths are relative to the workspace root); drop the leading '/'");

  // A hostile name cannot forge a second line or a terminal escape.
  std::string forged = bytes("a\nerror: b\r\x01\x1b[2J\0\x7f", 18);
  REQUIRE(forged.size() == 18);
  std::string m = msg(forged);
  CHECK(m ==
        "refused path 'a\\nerror: b\\r\\x01\\x1b[2J\\x00\\x7f': control-char "
        "(NUL and control characters are not allowed in names); rename the file");
  CHECK(m.find('\n') == std::string::npos);
  CHECK(m.find('\r') == std::string::npos);
}

TEST_CASE("printable_path escapes controls and broken UTF-8, keeps good UTF-8", "[path_policy]") {
  using ws::detail::printable_path;
  CHECK(printable_path("agents/a.json") == "agents/a.json");
  CHECK(printable_path("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(printable_path("a\tb") == "a\\tb");
  CHECK(printable_path("\xc2\x85") == "\\xc2\\x85");                      // C1 next-line
  CHECK(printable_path("\xe2\x80\xa8") == "\\xe2\\x80\\xa8");             // U+2028 line separator
  CHECK(printable_path("\xff" "a") == "\\xffa");                           // not UTF-8
  CHECK(printable_path("\xc3") == "\\xc3");                                // truncated
  CHECK(printable_path("\xe0\x80\xaf") == "\\xe0\\x80\\xaf");              // overlong '/'
  CHECK(printable_path("\xed\xa0\x80") == "\\xed\\xa0\\x80");              // surrogate
  CHECK(printable_path("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");         // emoji stays
}

TEST_CASE("every rule has a stable kebab-case name", "[path_policy]") {
  CHECK(std::string(ws::path_rule_name(PathRule::empty)) == "empty");
  CHECK(std::string(ws::path_rule_name(PathRule::unc_prefix)) == "unc-prefix");
  CHECK(std::string(ws::path_rule_name(PathRule::drive_prefix)) == "drive-prefix");
  CHECK(std::string(ws::path_rule_name(PathRule::absolute)) == "absolute");
  CHECK(std::string(ws::path_rule_name(PathRule::dot_component)) == "dot-component");
  CHECK(std::string(ws::path_rule_name(PathRule::backslash)) == "backslash");
  CHECK(std::string(ws::path_rule_name(PathRule::control_char)) == "control-char");
  CHECK(std::string(ws::path_rule_name(PathRule::git_dir)) == "git-dir");
  CHECK(std::string(ws::path_rule_name(PathRule::secret)) == "secret");
  CHECK(std::string(ws::path_rule_name(PathRule::protected_path)) == "protected-path");
  CHECK(std::string(ws::path_rule_name(PathRule::too_long)) == "too-long");
}

TEST_CASE("plain paths: the one-pass check breaks no rule but protected prefixes", "[path_policy]") {
  using ws::PathRule;
  for (const char* p : {"agents/AGtriage01.json", "a", "a.b/c-d_e.f", "endpoints/EP002381.cs", "x..y/z.", "A9/b0.c"}) {
    INFO(p);
    CHECK(ws::is_plain_path(p));
  }
  const std::string long_component(256, 'a');
  const std::string long_path = std::string(2100, 'a') + "/" + std::string(2100, 'b');
  for (std::string p : {std::string(""), std::string("/a"), std::string("a/"), std::string("a//b"),
                        std::string(".git/x"), std::string("a/.git"), std::string(".secrets/k"), std::string("a/.b"),
                        std::string("."), std::string(".."), std::string("a/../b"), std::string("git~1/x"),
                        std::string("C:x"), std::string("a\\b"), std::string("a b"), std::string("a\tb"),
                        std::string("\xc3\xa4"), std::string(".g\xe2\x80\x8cit/x"), std::string("a:b"),
                        long_component, long_path}) {
    INFO(p);
    CHECK_FALSE(ws::is_plain_path(p));
  }
  // The property check_path relies on, over every name the payload lists
  // hold and over every short string of a small alphabet: plain implies
  // that no rule but protected_path breaks, under the strictest policy.
  ws::PathPolicy strict = ws::write_policy();
  std::vector<std::string> inputs;
  const std::string alphabet = "a./\\:~ gG-_\x01";
  std::vector<std::string> frontier{""};
  for (int len = 1; len <= 4; ++len) {
    std::vector<std::string> next;
    for (const auto& s : frontier)
      for (char c : alphabet) next.push_back(s + c);
    inputs.insert(inputs.end(), next.begin(), next.end());
    frontier = std::move(next);
  }
  for (const char* f : {"/path-traversal-payloads.txt", "/path-traversal-dotdotpwn.txt"}) {
    std::ifstream in(std::string(WS_SHARED_DATA_DIR) + f);
    for (std::string line; std::getline(in, line);) inputs.push_back(line);
  }
  std::size_t plain = 0;
  for (const auto& p : inputs) {
    if (!ws::is_plain_path(p)) continue;
    ++plain;
    for (int r = 0; r <= static_cast<int>(PathRule::too_long); ++r) {
      auto rule = static_cast<PathRule>(r);
      if (rule == PathRule::protected_path) continue;
      if (ws::breaks_rule(rule, p, strict)) FAIL("plain path '" << p << "' breaks " << ws::path_rule_name(rule));
    }
    auto rejected = ws::check_path(p, strict);
    bool protected_path = ws::breaks_rule(PathRule::protected_path, p, strict);
    CHECK(rejected.has_value() == protected_path);
    if (rejected) CHECK(rejected->rule == PathRule::protected_path);
  }
  CHECK(plain > 1000);
}

TEST_CASE("PathChecker answers as check_path for paths in order", "[path_policy]") {
  // Folders it keeps as plain, then paths in them that are not plain
  // (deeper, dotted, too long, too deep), other folders, and every short
  // string of a small alphabet; each policy, protected prefixes included.
  std::vector<std::string> paths = {"a", "a/b", "a/b/c", "a/b/c/d", "a/b/..", "a/b/.git", "a/b/x y", "a/b/c-d.e",
                                    "a/b/" + std::string(256, 'n'), "a/b/" + std::string(255, 'n'), "a/bb",
                                    "ops/x", "ops/y/z", "OPS/x", ".secrets/k", "z"};
  const std::string deep = repeat_component("d", ws::kMaxPathDepth - 1);
  for (const char* name : {"/x", "/y", "/y/z", "/.z"}) paths.push_back(deep + name);
  const std::string alphabet = "a./\\:~-_\x01";
  std::vector<std::string> frontier{""};
  for (int len = 1; len <= 4; ++len) {
    std::vector<std::string> next;
    for (const auto& s : frontier)
      for (char c : alphabet) next.push_back(s + c);
    paths.insert(paths.end(), next.begin(), next.end());
    frontier = std::move(next);
  }
  std::sort(paths.begin(), paths.end());
  ws::PathPolicy names = ws::read_policy();
  names.allow_secret_names = true;
  for (const ws::PathPolicy& policy : {ws::read_policy(), names, ws::write_policy({"ops/", "**/z"})}) {
    ws::PathChecker checker(policy);
    for (const auto& p : paths) {
      INFO(p);
      auto expected = check_path(p, policy);
      auto got = checker.check(p);
      REQUIRE(got.has_value() == expected.has_value());
      if (got) CHECK(got->rule == expected->rule);
      CHECK(checker.last_plain() == ws::is_plain_path(p));
    }
  }
}

TEST_CASE("is_secret_path is the one answer, in every spelling the secret rule refuses", "[path][secrets]") {
  struct Row {
    std::string path;
    bool secret;
  };
  const Row rows[] = {
      {".secrets/ApiKey", true},
      {".secrets/a/b", true},
      {".SECRETS/ApiKey", true},
      {".Secrets/ApiKey", true},
      {".secrets./ApiKey", true},
      {".secrets. ./ApiKey", true},
      {".secrets /ApiKey", true},
      // NTFS streams: the folder itself, or a stream stored with it.
      {".secrets::$INDEX_ALLOCATION/ApiKey", true},
      {".SECRETS. ::$INDEX_ALLOCATION/ApiKey", true},
      {".secrets:stream", true},
      {".secrets:stream/ApiKey", true},
      {".secrets::$DATA", true},
      {".secrets\\ApiKey", true},  // a separator on NTFS
      // NTFS 8.3 short names: generated, and the hashed fallback.
      {"SECRET~1/ApiKey", true},
      {"secret~2/ApiKey", true},
      {"Secret~4 ./ApiKey", true},
      {"SECRET~12/ApiKey", true},
      {"SECRET~1::$INDEX_ALLOCATION/ApiKey", true},
      {"SE1F2E~1/ApiKey", true},
      {"se0a9b~3/ApiKey", true},
      {"SECRET~1", false},  // the short name alone, like the folder's
      {"SECRET~0/ApiKey", false},
      {"SECRET~/ApiKey", false},
      {"SECRET~1x/ApiKey", false},
      {"SECRE~1/ApiKey", false},
      {"SECRETS~1/ApiKey", false},
      {"SE1F2G~1/ApiKey", false},  // 'G' is no hex digit
      {"SE1F2~1/ApiKey", false},
      {"skills/SECRET~1", false},
      {"secrets~1/ApiKey", false},
      // HFS+'s ignorable code points, anywhere in the name.
      {".sec\xe2\x80\x8crets/ApiKey", true},      // U+200C
      {".secrets\xe2\x80\x8f/ApiKey", true},      // U+200F
      {"\xe2\x80\xaa.SECRETS/ApiKey", true},      // U+202A
      {".se\xe2\x80\xae" "crets/ApiKey", true},      // U+202E
      {".secr\xe2\x81\xaa" "ets/ApiKey", true},      // U+206A
      {".secrets\xe2\x81\xaf/ApiKey", true},      // U+206F
      {"\xef\xbb\xbf.secrets/ApiKey", true},      // U+FEFF
      {".s\xe2\x80\x8c\xe2\x80\x8d" "ec\xef\xbb\xbfrets/ApiKey", true},
      {".sec\xe2\x80\x8brets/ApiKey", false},     // U+200B is not ignored by HFS+
      {".sec\xe2\x80\x8crets", false},            // the folder's name alone
      {".secrets", false},    // the folder's name alone
      {".secrets/", false},   // no content named
      {"secrets/x", false},
      {".secretsx/x", false},
      {"x/.secrets/y", false},  // only the top-level folder holds secrets
      {"agents/.secrets", false},
      {"", false},
  };
  ws::PathPolicy names = ws::read_policy();
  names.allow_secret_names = true;
  for (const Row& row : rows) {
    INFO("path: '" << row.path << "'");
    CHECK(ws::is_secret_path(row.path) == row.secret);
    // The rule and the question agree wherever a path is secret content.
    CHECK(ws::breaks_rule(PathRule::secret, row.path, ws::read_policy()) == row.secret);
    CHECK_FALSE(ws::breaks_rule(PathRule::secret, row.path, names));
  }
  CHECK(ws::is_secret_folder(".SeCrEtS.."));
  CHECK(ws::is_secret_folder("secret~3"));
  CHECK(ws::is_secret_folder(".secrets::$INDEX_ALLOCATION"));
  CHECK(ws::is_secret_folder(".se\xe2\x81\xaf" "crets"));
  CHECK_FALSE(ws::is_secret_folder("secrets"));
  CHECK_FALSE(ws::is_secret_folder("skills"));
}
