#include "index_tree.h"

#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>

// The low-level SHA1_* functions, as in proposal_index.cpp: the one-shot
// SHA1() goes through EVP, which starts OpenSSL's configuration.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

namespace ws::detail {

namespace {

// The octal digits of `mode` as a tree entry writes them (no leading
// zero), into `out`; their count.
std::size_t mode_text(std::uint32_t mode, char out[12]) {
  char buf[12];
  std::size_t n = 0;
  do {
    buf[n++] = static_cast<char>('0' + (mode & 7));
    mode >>= 3;
  } while (mode != 0);
  for (std::size_t i = 0; i < n; ++i) out[i] = buf[n - 1 - i];
  return n;
}

class TreeHasher {
 public:
  explicit TreeHasher(const IndexFile& index) : index_(index), entries_(index.entries()) {}

  // The tree of entries [begin, end), all below the folder of `prefix`
  // bytes (ending in '/'; 0 for the root). Index order is tree order: git
  // sorts a folder's name as if it ended in '/', and so does a path sort.
  // Each depth keeps its body buffer from one folder to the next, so a
  // tree of 20,000 files is hashed without an allocation per folder (a
  // deque: growing it at the end leaves `body` of the callers in place).
  void hash(std::size_t begin, std::size_t end, std::size_t prefix, unsigned char id[20], std::size_t depth = 0) {
    if (bodies_.size() <= depth) bodies_.resize(depth + 1);
    std::string& body = bodies_[depth];
    body.clear();
    for (std::size_t i = begin; i < end;) {
      std::string_view rest = index_.path(entries_[i]).substr(prefix);
      std::size_t slash = rest.find('/');
      if (slash == std::string_view::npos) {
        append_entry(body, entries_[i].mode, rest, entries_[i].id);
        ++i;
        continue;
      }
      std::string_view dir = rest.substr(0, slash + 1);
      std::size_t j = i + 1;
      while (j < end && index_.path(entries_[j]).substr(prefix, dir.size()) == dir) ++j;
      unsigned char sub[20];
      hash(i, j, prefix + dir.size(), sub, depth + 1);
      append_entry(body, 040000, dir.substr(0, slash), sub);
      i = j;
    }
    char header[32];
    int n = std::snprintf(header, sizeof header, "tree %zu", body.size());
    SHA_CTX sha;
    SHA1_Init(&sha);
    SHA1_Update(&sha, header, static_cast<std::size_t>(n) + 1);  // with its NUL
    SHA1_Update(&sha, body.data(), body.size());
    SHA1_Final(id, &sha);
  }

 private:
  // "MODE NAME\0ID" grown in one step: a push per byte was a third of the
  // hashing of an index whose cache tree git reset had invalidated.
  static void append_entry(std::string& body, std::uint32_t mode, std::string_view name, const unsigned char id[20]) {
    char digits[12];
    const std::size_t n = mode_text(mode, digits);
    const std::size_t at = body.size();
    body.resize(at + n + 1 + name.size() + 1 + 20);
    char* p = body.data() + at;
    std::memcpy(p, digits, n);
    p[n] = ' ';
    std::memcpy(p + n + 1, name.data(), name.size());
    p[n + 1 + name.size()] = '\0';
    std::memcpy(p + n + 2 + name.size(), id, 20);
  }

  const IndexFile& index_;
  const std::vector<IndexEntry>& entries_;
  std::deque<std::string> bodies_;
};

}  // namespace

std::optional<std::array<unsigned char, 20>> index_tree_id(const IndexFile& index) {
  if (index.state() != IndexFile::State::ok) return std::nullopt;
  for (const auto& e : index.entries())
    if (e.stage != 0 || e.intent_to_add) return std::nullopt;
  std::array<unsigned char, 20> id{};
  TreeHasher(index).hash(0, index.entries().size(), 0, id.data());
  return id;
}

}  // namespace ws::detail
