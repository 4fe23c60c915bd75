#include "git_util.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace ws::git {

std::string last_error() {
  const git_error* e = git_error_last();
  if (!e || !e->message) {
    // Some of libgit2's failed writes (a full disk) set no error of their
    // own; the system's reason is then the one to give, as git does.
    int err = errno;
    return err ? std::strerror(err) : "unknown libgit2 error";
  }
  std::string msg = e->message;
  while (!msg.empty() && (msg.back() == '.' || msg.back() == '\n')) msg.pop_back();
  if (!msg.empty()) msg[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(msg[0])));
  return msg;
}

Error error(Errc code, const std::string& what) { return make_error(code, what + ": " + last_error()); }

Result<Commit> lookup_commit(git_repository* repo, const std::string& commit_hex) {
  git_oid oid;
  if (!from_hex(commit_hex, oid))
    return make_error(Errc::not_found, "not a commit id: '" + commit_hex + "'", commit_hex);
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) < 0) return error(Errc::not_found, "cannot read commit " + commit_hex);
  return Commit(raw);
}

Result<Tree> commit_tree(git_repository* repo, const std::string& commit_hex) {
  if (commit_hex.empty()) return Tree(nullptr);
  auto c = lookup_commit(repo, commit_hex);
  if (!c) return c.error();
  git_tree* raw = nullptr;
  if (git_commit_tree(&raw, c->get()) < 0) return error(Errc::environment, "cannot read tree of " + commit_hex);
  return Tree(raw);
}

void clear_error() {
  git_error_clear();
  errno = 0;
}

// By hand: git_oid_tostr costs over a thousand instructions an id, and a
// view formats one per entry (12 % of a view at 20,000 definitions).
// Two digits a byte from one table: a view of 100,000 entries spells
// 200,000 ids.
static constexpr auto kPairs = [] {
  constexpr char digits[] = "0123456789abcdef";
  std::array<char, 512> t{};
  for (int b = 0; b < 256; ++b) {
    t[2 * b] = digits[b >> 4];
    t[2 * b + 1] = digits[b & 15];
  }
  return t;
}();

std::string to_hex(const unsigned char* raw) {
  char buf[GIT_OID_HEXSZ];
  for (int i = 0; i < GIT_OID_RAWSZ; ++i) std::memcpy(buf + 2 * i, &kPairs[2 * raw[i]], 2);
  return std::string(buf, GIT_OID_HEXSZ);
}

std::string to_hex(const git_oid& oid) { return to_hex(oid.id); }

bool hex_equals(std::string_view hex, const unsigned char* raw) {
  if (hex.size() != GIT_OID_HEXSZ) return false;
  for (int i = 0; i < GIT_OID_RAWSZ; ++i)
    if (std::memcmp(hex.data() + 2 * i, &kPairs[2 * raw[i]], 2) != 0) return false;
  return true;
}

// By hand too: isxdigit and git_oid_fromstr through the PLT cost about
// 1,200 instructions an id, and a search of a committed tree parses one per
// file read (3 % of `ws-grep --base` at 20,000 definitions).
bool from_hex(const std::string& hex, git_oid& out) {
  if (hex.size() != GIT_OID_HEXSZ) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  git_oid oid;
  for (int i = 0; i < GIT_OID_RAWSZ; ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if ((hi | lo) < 0) return false;
    oid.id[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  out = oid;
  return true;
}

void ensure_init() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // git itself does not re-hash objects on every read (fsck does); libgit2's
    // default does, at up to 40% of a committed-tree search.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    // Workspace directory trees are large (thousands of entries); keep them
    // in the object cache so one run inflates each tree once.
    git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, static_cast<size_t>(64) << 20);
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, static_cast<ssize_t>(256) << 20);
    // Pack windows are mmapped; bounding them keeps a cold build of a large
    // workspace within its memory budget at no cost in speed.
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, static_cast<size_t>(4) << 20);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, static_cast<size_t>(64) << 20);
  });
}

}  // namespace ws::git
