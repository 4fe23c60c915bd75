// Canonical proposal trees (proposal_canonical.h). Each tree object a
// proposal brings is checked on its raw bytes, before libgit2 parses it:
// its parser reads a zero-padded mode as the plain one and cannot read an
// entry with an empty name at all, and either must be a refusal that names
// the path and the rule, never a silent repair or an unreadable tree.
#include "proposal_canonical.h"

#include <fmt/format.h>

#include "printable_path.h"
#include "libcheck/path_policy.h"

namespace ws::proposal {

namespace {

constexpr std::uint64_t kTypeBits = 0170000;
constexpr std::uint64_t kModeTree = 0040000;
constexpr const char* kHolds = "; a proposal holds regular files (100644, 100755) and folders only";

// `path` shown as the man pages quote it; the root folder has no path.
Error refusal(std::string_view path, const std::string& why, Rule rule) {
  std::string where = path.empty() ? "refused the root folder" : "refused path '" + detail::printable_path(path) + "'";
  return make_error(Errc::refused, where + ": " + why, std::string(path), rule);
}

// What a refused mode is, from its type bits (git keeps S_IFMT's values).
std::string mode_problem(std::uint64_t mode) {
  const char* what = nullptr;
  switch (mode > 0177777 ? ~std::uint64_t{0} : mode & kTypeBits) {
    case 0100000: what = "a regular file with permissions git does not write"; break;
    case 0040000: what = "a folder with permission bits"; break;
    case 0120000: what = "a symlink"; break;
    case 0160000: what = "a submodule"; break;
    case 0140000: what = "a socket"; break;
    case 0060000: what = "a block device"; break;
    case 0020000: what = "a character device"; break;
    case 0010000: what = "a FIFO"; break;
    case 0: what = "of no file type"; break;
    default: what = "not a file type git knows"; break;
  }
  return fmt::format("mode {:06o} is {}{}", mode, what, kHolds);
}

std::string short_hex(const git_oid& id) { return git::to_hex(id).substr(0, 12); }

// One entry of a raw tree object: "<octal mode> <name>\0<20-byte id>".
struct RawEntry {
  std::string_view mode_text;
  std::uint64_t mode = 0;
  std::string_view name;
  git_oid id{};
  bool tree() const { return (mode & kTypeBits) == kModeTree; }
};

// Takes the next entry off the front of `rest`; false when the bytes there
// are not one (a mode of no octal digits or too many, no name, a cut id).
bool next_entry(std::string_view& rest, RawEntry& out) {
  std::size_t space = rest.find(' ');
  if (space == 0 || space > 12 || space == std::string_view::npos) return false;
  out.mode_text = rest.substr(0, space);
  out.mode = 0;
  for (char c : out.mode_text) {
    if (c < '0' || c > '7') return false;
    out.mode = out.mode * 8 + static_cast<std::uint64_t>(c - '0');
  }
  std::size_t nul = rest.find('\0', space + 1);
  if (nul == std::string_view::npos || rest.size() - nul - 1 < GIT_OID_RAWSZ) return false;
  out.name = rest.substr(space + 1, nul - space - 1);
  git_oid_fromraw(&out.id, reinterpret_cast<const unsigned char*>(rest.data() + nul + 1));
  rest.remove_prefix(nul + 1 + GIT_OID_RAWSZ);
  return true;
}

// git's tree order: names bytewise, a folder's as if it ended with '/'.
int git_order(const RawEntry& a, const RawEntry& b) {
  std::size_t n = std::min(a.name.size(), b.name.size());
  if (int c = a.name.substr(0, n).compare(b.name.substr(0, n))) return c;
  auto tail = [n](const RawEntry& e) -> unsigned char {
    return n < e.name.size() ? static_cast<unsigned char>(e.name[n]) : e.tree() ? '/' : '\0';
  };
  unsigned char ta = tail(a), tb = tail(b);
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

// A folder named like a file before it: in git's order only names that
// extend the file's with a byte below '/' ("b.json" for "b") lie between.
bool file_named_like(const RawEntry& folder, const std::vector<RawEntry>& before) {
  for (auto it = before.rbegin(); it != before.rend(); ++it) {
    std::string_view n = it->name;
    if (n.substr(0, folder.name.size()) != folder.name) return false;
    if (n.size() == folder.name.size()) return !it->tree();
    if (static_cast<unsigned char>(n[folder.name.size()]) >= '/') return false;
  }
  return false;
}

// The name rules of the path policy without its secret and protected
// rules, which refuse_entry applies to what a proposal changes.
const PathPolicy& name_policy() {
  static const PathPolicy policy = [] {
    PathPolicy p = read_policy();
    p.allow_secret_names = true;
    return p;
  }();
  return policy;
}

std::string join(std::string_view folder, std::string_view name) {
  std::string path(folder);
  if (!path.empty()) path.push_back('/');
  path.append(name);
  return path;
}

// The name rules, on a path a proposal adds or changes.
Status check_name(std::string_view path) {
  if (auto rej = check_path(path, name_policy()))
    return make_error(Errc::refused, rej->message(), std::string(path), to_rule(rej->rule));
  return Ok{};
}

// Checks the tree objects of a proposal, one folder at a time.
class TreeChecker {
 public:
  TreeChecker(git_odb* odb, CheckedProposal& out) : odb_(odb), out_(out) {}

  // The tree object `id` at `folder` (depth: its path's components). The
  // folder's own path passes the name rules here; each file's, once the
  // walk has told the changed ones (check_changed_names): an entry the base
  // holds as it is needs no second look, and most of a large folder is that.
  Status check(const git_oid& id, std::string_view folder, int depth) {
    if (depth > 0)
      if (auto st = check_name(folder); !st) return st;
    auto object = read_tree(id, folder);
    if (!object) return object.error();
    const std::string_view bytes(static_cast<const char*>(git_odb_object_data(object->get())),
                                 git_odb_object_size(object->get()));
    std::string_view rest = bytes;
    std::vector<RawEntry> seen;
    seen.reserve(rest.size() / 40);  // "100644 " + a short name + 20 bytes of id
    while (!rest.empty()) {
      RawEntry e;
      if (!next_entry(rest, e))
        return refusal(folder, "its tree object " + short_hex(id) + " is malformed after " +
                                   std::to_string(seen.size()) + " entries",
                       Rule::malformed_tree);
      if (auto st = check_entry(e, folder, seen); !st) return st;
      // Whatever this folder holds is a path deeper than the policy allows;
      // the walk goes no further down.
      if (depth >= kMaxPathDepth) return check_name(join(folder, e.name));
      seen.push_back(e);
    }
    if (seen.empty() && depth > 0)
      return refusal(folder, "an empty folder, which git never writes", Rule::empty_folder);
    out_.trees[folder.empty() ? std::string() : std::string(folder) + "/"] = KnownTree{id, bytes};
    out_.objects.push_back(std::move(object).value());
    return Ok{};
  }

 private:
  Result<git::OdbObject> read_tree(const git_oid& id, std::string_view folder) {
    git_odb_object* raw = nullptr;
    git::clear_error();
    int rc = git_odb_read(&raw, odb_, &id);
    if (rc == GIT_ENOTFOUND)
      return refusal(folder, "its tree object " + short_hex(id) + " is missing from the object database",
                     Rule::missing_object);
    if (rc < 0) return git::error(Errc::environment, "cannot read the tree object " + git::to_hex(id));
    git::OdbObject object(raw);
    git_object_t type = git_odb_object_type(raw);
    if (type != GIT_OBJECT_TREE)
      return refusal(folder, "mode 040000 names a folder, but object " + short_hex(id) + " is a " +
                                 git_object_type2string(type),
                     Rule::object_type);
    return object;
  }

  // One entry, in the order of the rules listed in proposal_canonical.h;
  // its path is spelt out only for a refusal.
  Status check_entry(const RawEntry& e, std::string_view folder, const std::vector<RawEntry>& before) {
    if (e.name.empty()) return refusal(folder, "it holds an entry with an empty name", Rule::entry_name);
    if (e.name.find('/') != std::string_view::npos)
      return refusal(join(folder, e.name), "the entry's name holds a '/'; each entry of a tree names one file or folder",
                     Rule::entry_name);
    if (e.mode_text.size() > 1 && e.mode_text.front() == '0')
      return refusal(join(folder, e.name),
                     fmt::format("mode written as '{}' is zero-padded; git writes '{:o}'", e.mode_text, e.mode),
                     Rule::mode);
    if (e.mode != 0100644 && e.mode != 0100755 && e.mode != kModeTree)
      return refusal(join(folder, e.name), mode_problem(e.mode), Rule::mode);
    if (before.empty()) return Ok{};
    int order = git_order(before.back(), e);
    if (order == 0 || (e.tree() && file_named_like(e, before)))
      return refusal(join(folder, e.name), "its folder names it twice; a tree holds each name once",
                     Rule::duplicate_name);
    if (order > 0)
      return refusal(join(folder, e.name),
                     "out of git's order in its folder (after '" +
                         detail::printable_path(join(folder, before.back().name)) +
                         "'); git sorts a tree's names bytewise",
                     Rule::tree_order);
    return Ok{};
  }

  git_odb* odb_;
  CheckedProposal& out_;
};

// Each path a change adds or replaces passes the name rules.
Status check_changed_names(const std::vector<TreeChange>& changes) {
  for (const auto& c : changes)
    if (c.status != GIT_DELTA_DELETED)
      if (auto st = check_name(c.path); !st) return st;
  return Ok{};
}

// Each file a change adds or replaces names an object that is a blob.
Status check_blobs(git_odb* odb, const std::vector<TreeChange>& changes) {
  for (const auto& c : changes) {
    if (c.status == GIT_DELTA_DELETED) continue;
    git_oid id;
    git::from_hex(c.new_id, id);
    std::size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    git::clear_error();
    int rc = git_odb_read_header(&size, &type, odb, &id);
    if (rc == GIT_ENOTFOUND)
      return refusal(c.path, "its blob " + short_hex(id) + " is missing from the object database",
                     Rule::missing_object);
    if (rc < 0) return git::error(Errc::environment, "cannot read the object of '" + c.path + "'");
    if (type != GIT_OBJECT_BLOB)
      return refusal(c.path, fmt::format("mode {:06o} names a file, but object {} is a {}", c.new_mode, short_hex(id),
                                         git_object_type2string(type)),
                     Rule::object_type);
  }
  return Ok{};
}

}  // namespace

std::optional<std::string> refuse_file_mode(std::string_view path, std::uint32_t mode) {
  if (mode == 0100644 || mode == 0100755) return std::nullopt;
  std::string why = mode == kModeTree ? std::string("mode 040000 is a folder where a file was expected")
                                      : mode_problem(mode);
  return refusal(path, why, Rule::mode).message;
}

Result<CheckedProposal> check_proposal(git_repository* repo, git_tree* base_tree, const std::string& proposal) {
  auto commit = git::lookup_commit(repo, proposal);
  if (!commit) return commit.error();
  return check_proposal(repo, base_tree, *git_commit_tree_id(commit->get()));
}

Result<CheckedProposal> check_proposal(git_repository* repo, git_tree* base_tree, const git_oid& proposal_tree) {
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) < 0) return git::error(Errc::environment, "cannot open the object database");
  git::Odb odb(raw);
  CheckedProposal out;
  TreeChecker checker(odb.get(), out);
  if (auto st = checker.check(proposal_tree, "", 0); !st) return st.error();
  git_tree* root_raw = nullptr;
  if (git_tree_lookup(&root_raw, repo, &proposal_tree) < 0)
    return git::error(Errc::environment, "cannot read the tree " + git::to_hex(proposal_tree));
  git::Tree root(root_raw);
  auto changes = tree_changes(repo, base_tree, root.get(), [&](const git_oid& id, std::string_view folder, int depth) {
    return checker.check(id, folder, depth);
  });
  if (!changes) return changes.error();
  if (auto st = check_changed_names(*changes); !st) return st.error();
  if (auto st = check_blobs(odb.get(), *changes); !st) return st.error();
  out.changes = std::move(changes).value();
  return out;
}

Result<git_oid> landing_tree(git_repository* repo, const std::string& onto, const CheckedProposal& proposal) {
  auto tree = git::commit_tree(repo, onto);
  if (!tree) return tree.error();
  std::vector<TreeEdit> edits;
  edits.reserve(proposal.changes.size());
  for (const auto& c : proposal.changes) {
    TreeEdit& e = edits.emplace_back();
    e.path = c.path;
    e.remove = c.status == GIT_DELTA_DELETED;
    if (!e.remove) {
      git::from_hex(c.new_id, e.id);
      e.mode = c.new_mode;
    }
  }
  return write_edited_tree(repo, tree->get(), std::move(edits), &proposal.trees);
}

}  // namespace ws::proposal
