#include "support/hand_made.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include <git2.h>

namespace wstest {

namespace {

std::string raw_id(const std::string& hex) {
  if (hex.size() != 40) throw std::runtime_error("not an object id: '" + hex + "'");
  std::string raw;
  for (std::size_t i = 0; i < 40; i += 2) raw.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return raw;
}

// git with `input` on stdin, in the repository; throws on failure.
std::string git_with_input(const TempRepo& repo, const std::vector<std::string>& args, const std::string& input) {
  RunOptions o;
  o.cwd = repo.path();
  o.input = input;
  o.unset_env = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"};
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult r = run(argv, o);
  if (r.status != 0) throw std::runtime_error("git " + args[0] + " failed: " + r.err);
  return chomp(r.out);
}

std::uint32_t be32(const std::string& b, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
  return v;
}

std::string be32_bytes(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

// A pack entry's header: the type, then the size, 4 bits and 7 per byte on.
std::string pack_object_header(int type, std::size_t size) {
  std::string out;
  unsigned char c = static_cast<unsigned char>((type << 4) | (size & 0x0f));
  size >>= 4;
  while (size) {
    out.push_back(static_cast<char>(c | 0x80));
    c = size & 0x7f;
    size >>= 7;
  }
  out.push_back(static_cast<char>(c));
  return out;
}

// `data` as a zlib stream of stored (uncompressed) blocks, which any
// inflater reads: the smallest writer that needs no zlib.
std::string zlib_stored(std::string_view data) {
  std::string out = "\x78\x01";
  std::size_t at = 0;
  do {
    std::size_t n = std::min<std::size_t>(65535, data.size() - at);
    out.push_back(at + n == data.size() ? 1 : 0);  // BFINAL, BTYPE 00
    for (std::size_t v : {n, ~n & 0xffff}) {
      out.push_back(static_cast<char>(v & 0xff));
      out.push_back(static_cast<char>((v >> 8) & 0xff));
    }
    out.append(data.substr(at, n));
    at += n;
  } while (at < data.size());
  std::uint32_t a = 1, b = 0;  // Adler-32
  for (unsigned char ch : data) {
    a = (a + ch) % 65521;
    b = (b + a) % 65521;
  }
  return out + be32_bytes(b << 16 | a);
}

void require(bool ok) {
  if (!ok) throw std::runtime_error("rewrite_index_entry: the index is not as expected");
}

bool is_folder(const RawEntry& e) { return e.mode == "40000" || e.mode == "040000"; }

// git's tree order: names bytewise, a folder's as if it ended with '/'.
bool git_less(const RawEntry& a, const RawEntry& b) {
  return a.name + (is_folder(a) ? "/" : "") < b.name + (is_folder(b) ? "/" : "");
}

}  // namespace

std::string raw_tree_bytes(const std::vector<RawEntry>& entries) {
  std::string bytes;
  for (const auto& e : entries) {
    bytes += e.mode + " " + e.name;
    bytes.push_back('\0');
    bytes += raw_id(e.id);
  }
  return bytes;
}

std::string write_raw_tree(const TempRepo& repo, const std::string& bytes) {
  return git_with_input(repo, {"hash-object", "-t", "tree", "-w", "--literally", "--stdin"}, bytes);
}

std::string write_raw_tree(const TempRepo& repo, const std::vector<RawEntry>& entries) {
  return write_raw_tree(repo, raw_tree_bytes(entries));
}

std::string write_nested_folders(const TempRepo& repo, const std::string& name, int depth, const RawEntry& inner) {
  git_libgit2_init();
  std::string objects;
  std::string bytes = raw_tree_bytes({inner});
  char hex[GIT_OID_HEXSZ + 1] = {};
  for (int i = 0; i < depth; ++i) {
    git_oid id;
    if (git_odb_hash(&id, bytes.data(), bytes.size(), GIT_OBJECT_TREE) < 0)
      throw std::runtime_error("libgit2: cannot hash a tree");
    objects += pack_object_header(2, bytes.size()) + zlib_stored(bytes);  // 2: a tree
    git_oid_tostr(hex, sizeof hex, &id);
    bytes = raw_tree_bytes({{"40000", name, hex}});
  }
  git_libgit2_shutdown();
  std::string pack = "PACK" + be32_bytes(2) + be32_bytes(static_cast<std::uint32_t>(depth)) + objects;
  RunOptions o;
  o.input = pack;
  RunResult sum = run({"sha1sum"}, o);
  if (sum.status != 0) throw std::runtime_error("sha1sum failed");
  pack += raw_id(sum.out.substr(0, 40));
  git_with_input(repo, {"index-pack", "--stdin"}, pack);
  return hex;
}

void rewrite_index_entry(const TempRepo& repo, const std::string& path, std::uint32_t mode,
                         const std::string& new_path) {
  std::string index = repo.read(".git/index");
  require(index.substr(0, 8) == std::string("DIRC\0\0\0\2", 8));
  std::size_t at = 12;
  bool found = false;
  for (std::uint32_t n = be32(index, 8); n > 0; --n) {
    std::size_t len = (static_cast<unsigned char>(index[at + 60]) << 8 | static_cast<unsigned char>(index[at + 61])) & 0xfff;
    if (index.compare(at + 62, len, path) == 0 && len == path.size()) {
      for (int i = 0; i < 4; ++i) index[at + 24 + i] = static_cast<char>(mode >> (24 - 8 * i));
      if (!new_path.empty()) {
        require(new_path.size() == len);
        index.replace(at + 62, len, new_path);
      }
      found = true;
    }
    at += (62 + len + 8) / 8 * 8;
  }
  require(found);
  wstest::RunOptions o;
  o.input = index.substr(0, index.size() - 20);
  RunResult sum = wstest::run({"sha1sum"}, o);
  require(sum.status == 0);
  for (std::size_t i = 0; i < 20; ++i)
    index[index.size() - 20 + i] = static_cast<char>(std::stoi(sum.out.substr(2 * i, 2), nullptr, 16));
  repo.write(".git/index", index);
}

std::string write_blob(const TempRepo& repo, const std::string& bytes) {
  return git_with_input(repo, {"hash-object", "-w", "--stdin"}, bytes);
}

std::vector<RawEntry> tree_entries(const TempRepo& repo, const std::string& tree) {
  std::vector<RawEntry> out;
  std::string listing = repo.git({"ls-tree", "-z", tree});
  std::size_t at = 0;
  while (at < listing.size()) {
    std::size_t end = listing.find('\0', at);
    std::string line = listing.substr(at, end - at);
    at = end == std::string::npos ? listing.size() : end + 1;
    // "<mode> <type> <id>\t<name>"
    std::size_t sp1 = line.find(' '), sp2 = line.find(' ', sp1 + 1), tab = line.find('\t');
    RawEntry e{line.substr(0, sp1), line.substr(tab + 1), line.substr(sp2 + 1, tab - sp2 - 1)};
    if (e.mode == "040000") e.mode = "40000";
    out.push_back(std::move(e));
  }
  return out;
}

std::string tree_with(const TempRepo& repo, const std::string& tree, const std::string& folder,
                      const RawEntry& entry) {
  std::vector<RawEntry> entries = tree.empty() ? std::vector<RawEntry>() : tree_entries(repo, tree);
  if (!folder.empty()) {
    std::size_t slash = folder.find('/');
    std::string first = folder.substr(0, slash);
    std::string rest = slash == std::string::npos ? "" : folder.substr(slash + 1);
    std::string sub;
    for (const auto& e : entries)
      if (e.name == first && is_folder(e)) sub = e.id;
    return tree_with(repo, tree, "", {"40000", first, tree_with(repo, sub, rest, entry)});
  }
  std::erase_if(entries, [&](const RawEntry& e) { return e.name == entry.name; });
  entries.push_back(entry);
  std::sort(entries.begin(), entries.end(), git_less);
  return write_raw_tree(repo, entries);
}

std::string plant_proposal(const TempRepo& repo, const HandMadeProposal& p) {
  std::vector<std::string> args{"commit-tree", p.tree};
  if (!p.parent.empty()) args.insert(args.end(), {"-p", p.parent});
  args.insert(args.end(), {"-m", p.message + "\n\nWs-Session: " + p.session + "\nWs-Branch: " + p.branch});
  std::string id = chomp(repo.git(args));
  repo.git({"update-ref", "refs/ws/proposals/" + p.session, id});
  return id;
}

namespace {

// Every 40-hex word of `text`.
std::set<std::string> object_ids(const std::string& text) {
  std::set<std::string> ids;
  auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    while (j < text.size() && hex(text[j])) ++j;
    if (j - i == 40) ids.insert(text.substr(i, 40));
    i = j == i ? i + 1 : j;
  }
  return ids;
}

}  // namespace

void forget_proposal(const TempRepo& repo, const std::string& session) {
  repo.git({"update-ref", "-d", "refs/ws/proposals/" + session});
  std::set<std::string> reachable = object_ids(repo.git({"rev-list", "--objects", "--all", "--indexed-objects"}));
  // A broken tree's commit is named only once the tree is gone: a few rounds.
  for (int round = 0; round < 8; ++round) {
    RunResult fsck = repo.git_result({"fsck", "--strict", "--no-progress", "--no-dangling"});
    int removed = 0;
    for (const std::string& id : object_ids(fsck.out + fsck.err)) {
      if (reachable.count(id)) continue;
      std::error_code ec;
      removed += std::filesystem::remove(repo.abs(".git/objects/" + id.substr(0, 2) + "/" + id.substr(2)), ec);
    }
    if (removed == 0) return;
  }
}

}  // namespace wstest
