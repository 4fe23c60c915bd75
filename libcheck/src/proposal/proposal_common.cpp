#include <sys/stat.h>

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <ctime>
#include <set>

#include "git_attributes.h"
#include "libcheck/path_policy.h"
#include "proposal_canonical.h"
#include "proposal_internal.h"

namespace ws::proposal {

Trailers parse_trailers(std::string_view message) {
  Trailers t;
  std::string msg(message);
  while (!msg.empty() && msg.back() == '\n') msg.pop_back();
  auto para = msg.rfind("\n\n");
  std::string_view last = para == std::string::npos ? std::string_view() : std::string_view(msg).substr(para + 2);
  bool all_ws = !last.empty();
  std::size_t pos = 0;
  while (all_ws && pos < last.size()) {
    auto nl = last.find('\n', pos);
    std::string_view line = last.substr(pos, nl == std::string_view::npos ? last.size() - pos : nl - pos);
    if (line.rfind("Ws-Session: ", 0) == 0) t.session = line.substr(12);
    else if (line.rfind("Ws-Branch: ", 0) == 0) t.branch = line.substr(11);
    else all_ws = false;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (all_ws) t.body = msg.substr(0, para) + "\n";
  else {
    t = Trailers{};
    t.body = msg + "\n";
  }
  return t;
}

std::string with_trailers(const std::string& message, const std::string& session, const std::string& branch) {
  std::string m = message;
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  m += "\n\nWs-Session: " + session + "\n";
  if (!branch.empty()) m += "Ws-Branch: " + branch + "\n";
  return m;
}

std::string ref_target(git_repository* repo, const std::string& name) {
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo, name.c_str()) < 0) return "";
  return git::to_hex(oid);
}

namespace {

// The base side's bytes of a deleted or modified entry (kept alive by
// `blob`), and its mode: the base tree's for a modified entry.
Status read_base_side(git_repository* repo, git_tree* base_tree, const ViewEntry& e, FileStat& f, git::Blob& blob,
                      std::string_view& bytes) {
  const ObjectId& id = e.base_blob_id.empty() ? e.blob_id : e.base_blob_id;
  git_oid oid;
  git_blob* raw = nullptr;
  if (!git::to_oid(id, oid) || git_blob_lookup(&raw, repo, &oid) < 0)
    return git::error(Errc::environment, "cannot read the base of '" + e.path + "'");
  blob.reset(raw);
  bytes = std::string_view(static_cast<const char*>(git_blob_rawcontent(raw)),
                           static_cast<std::size_t>(git_blob_rawsize(raw)));
  f.old_mode = e.mode;
  if (e.status == ChangeStatus::modified && base_tree) {
    git_tree_entry* te = nullptr;
    if (git_tree_entry_bypath(&te, base_tree, e.path.c_str()) == 0) {
      f.old_mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(te));
      git_tree_entry_free(te);
    }
  }
  return Ok{};
}

// The patch between the blobs, whose diff driver comes from the attributes,
// as in a tree diff.
Result<git_patch*> patch_of_blobs(git_repository* repo, const ViewEntry& e, const FileStat& f, git::Blob& old_blob,
                                  std::string_view new_bytes, const git_diff_options& opts) {
  git::Blob new_blob;
  if (e.status != ChangeStatus::deleted) {
    git_oid oid;
    git_blob* raw = nullptr;
    if (git_odb_hash(&oid, new_bytes.data(), new_bytes.size(), GIT_OBJECT_BLOB) < 0 ||
        git_blob_lookup(&raw, repo, &oid) < 0)
      return git::error(Errc::environment, "cannot read the new bytes of '" + e.path + "'");
    new_blob.reset(raw);
  }
  if (e.status == ChangeStatus::renamed) {
    git_blob* raw = nullptr;
    if (git_blob_dup(&raw, new_blob.get()) < 0) return git::error(Errc::environment, "cannot copy a blob");
    old_blob.reset(raw);
  }
  const std::string& from = f.old_path.empty() ? e.path : f.old_path;
  git_patch* praw = nullptr;
  if (git_patch_from_blobs(&praw, old_blob.get(), from.c_str(), new_blob.get(), e.path.c_str(), &opts) < 0)
    return git::error(Errc::environment, "cannot compare the bytes of '" + e.path + "'");
  return praw;
}

// The lines added and deleted, and whether git takes the change as binary.
Status count_lines(git_repository* repo, const ViewEntry& e, FileStat& f, git::Blob& old_blob,
                   std::string_view old_bytes, std::string_view new_bytes, bool with_attributes,
                   const git_diff_options& opts) {
  git_patch* praw = nullptr;
  git::clear_error();
  if (!with_attributes) {
    // Buffers carry no repository, so no attribute is looked up.
    if (git_patch_from_buffers(&praw, old_bytes.data(), old_bytes.size(), nullptr, new_bytes.data(),
                               new_bytes.size(), nullptr, &opts) < 0)
      return git::error(Errc::environment, "cannot compare the bytes of '" + e.path + "'");
  } else {
    auto patch = patch_of_blobs(repo, e, f, old_blob, new_bytes, opts);
    if (!patch) return patch.error();
    praw = *patch;
  }
  std::size_t ctx = 0, add = 0, del = 0;
  git_patch_line_stats(&ctx, &add, &del, praw);
  f.additions = add;
  f.deletions = del;
  f.binary = (git_patch_get_delta(praw)->flags & GIT_DIFF_FLAG_BINARY) != 0;
  git_patch_free(praw);
  return Ok{};
}

// The stat of change `e` with new bytes `contents` (none for a delete).
Result<FileStat> change_stat(git_repository* repo, git_tree* base_tree, const ViewEntry& e,
                             const std::string& contents, bool with_attributes, const SecretBlobs& secrets,
                             const git_diff_options& opts) {
  FileStat f;
  f.path = e.path;
  f.status = e.status;
  if (e.status == ChangeStatus::renamed) f.old_path = e.old_path;
  if (is_secret_change(e.path, e.old_path, e.base_blob_id.hex(),
                       e.status == ChangeStatus::deleted ? std::string() : e.blob_id.hex(), secrets)) {
    f.secret = true;  // by path only: neither side is read
    f.old_mode = e.status == ChangeStatus::added ? 0 : e.mode;
    f.new_mode = e.status == ChangeStatus::deleted ? 0 : e.mode;
    return f;
  }
  // The base side: nothing for an add; for an exact rename, the same bytes.
  git::Blob old_blob;
  std::string_view old_bytes, new_bytes;
  if (e.status != ChangeStatus::deleted) {
    new_bytes = contents;
    f.new_mode = e.mode;
  }
  if (e.status == ChangeStatus::renamed) {
    old_bytes = new_bytes;
    f.old_mode = e.mode;  // renames pair equal modes only
  } else if (e.status == ChangeStatus::deleted || e.status == ChangeStatus::modified) {
    if (auto read = read_base_side(repo, base_tree, e, f, old_blob, old_bytes); !read) return read.error();
  }
  f.old_size = old_bytes.size();
  f.new_size = new_bytes.size();
  if (auto counted = count_lines(repo, e, f, old_blob, old_bytes, new_bytes, with_attributes, opts); !counted)
    return counted.error();
  return f;
}

}  // namespace

Result<std::vector<FileStat>> change_stats(git_repository* repo, git_tree* base_tree,
                                           const std::vector<const ViewEntry*>& changes,
                                           const std::vector<std::string>& contents, bool with_attributes,
                                           const SecretBlobs& secrets) {
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  std::vector<FileStat> out;
  out.reserve(changes.size());
  for (std::size_t i = 0; i < changes.size(); ++i) {
    auto f = change_stat(repo, base_tree, *changes[i], contents[i], with_attributes, secrets, opts);
    if (!f) return f.error();
    out.push_back(std::move(*f));
  }
  return out;
}

bool attributes_may_apply(git_repository* repo, const View& view) {
  for (const auto& e : view.entries())
    if (git::is_gitattributes_path(e.path)) return true;
  return !git::attributes_file_outside_tree(repo).empty();
}

}  // namespace ws::proposal

namespace ws {

namespace {

// Names as libgit2 keeps them in a delta: a delete or an add has the same
// path on both sides.
const std::string& old_name(const FileStat& f) { return f.old_path.empty() ? f.path : f.old_path; }

int digits(std::size_t v) {
  int n = 1;
  for (std::size_t place = 10; v >= place; place *= 10) ++n;
  return n;
}

// The columns of git's --stat for `files`: the widest name, the largest
// count and the graph's width, and the totals.
struct StatLayout {
  std::size_t max_name = 0, max_filestat = 0, renames = 0, insertions = 0, deletions = 0;
  int max_digits = 1;
  std::size_t width = 80;

  explicit StatLayout(const std::vector<FileStat>& files) {
    for (const auto& f : files) {
      std::size_t namelen = f.path.size();
      if (old_name(f) != f.path) {
        namelen += old_name(f).size();
        ++renames;
      }
      max_name = std::max(max_name, namelen);
      max_filestat = std::max(max_filestat, f.additions + f.deletions);
      insertions += f.additions;
      deletions += f.deletions;
    }
    max_digits = digits(max_filestat + 1);
    if (width > max_name + static_cast<std::size_t>(max_digits) + 5) width -= max_name + max_digits + 5;
    if (width < 7) width = 7;
    if (width > max_filestat) width = 0;
  }
};

// " name", or a rename as " dir/{old => new}", padded to the column.
void append_name(std::string& out, const FileStat& f, const StatLayout& l) {
  const std::string& from = old_name(f);
  std::size_t padding;
  if (from != f.path) {
    padding = l.max_name - from.size() - f.path.size();
    std::size_t common = 0;
    for (std::size_t k = 0; k < from.size() && k < f.path.size(); ++k) {
      if (from[k] == '/' && f.path[k] == '/') common = k + 1;
      else if (from[k] != f.path[k]) break;
    }
    if (common && common <= INT_MAX)
      out += " " + from.substr(0, common) + "{" + from.substr(common) + " => " + f.path.substr(common) + "}";
    else
      out += " " + from + " => " + f.path;
  } else {
    out += " " + f.path;
    padding = l.max_name - f.path.size();
    if (l.renames > 0) padding += 4;
  }
  out.append(padding, ' ');
}

// The count and the +/- graph, or what stands for them.
void append_count(std::string& out, const FileStat& f, const StatLayout& l) {
  char buf[64];
  if (f.secret) {
    out += "secret";  // no count and no size: they would describe its content
  } else if (f.binary) {
    std::snprintf(buf, sizeof buf, "Bin %" PRIu64 " -> %" PRIu64 " bytes", f.old_size, f.new_size);
    out += buf;
  } else {
    std::size_t total = f.additions + f.deletions;
    std::snprintf(buf, sizeof buf, "%*zu", l.max_digits, total);
    out += buf;
    if (!total) return;
    out += ' ';
    if (!l.width) {
      out.append(f.additions, '+');
      out.append(f.deletions, '-');
    } else {
      std::size_t full = (total * l.width + l.max_filestat / 2) / l.max_filestat;
      std::size_t plus = full * f.additions / total;
      std::size_t minus = full - plus;
      out.append(std::max<std::size_t>(plus, 1), '+');
      out.append(std::max<std::size_t>(minus, 1), '-');
    }
  }
}

// " N files changed, I insertions(+), D deletions(-)".
void append_totals(std::string& out, std::size_t files, const StatLayout& l) {
  out += " " + std::to_string(files) + " file" + (files != 1 ? "s" : "") + " changed";
  if (l.insertions || l.deletions == 0)
    out += ", " + std::to_string(l.insertions) + " insertion" + (l.insertions != 1 ? "s" : "") + "(+)";
  if (l.deletions || l.insertions == 0)
    out += ", " + std::to_string(l.deletions) + " deletion" + (l.deletions != 1 ? "s" : "") + "(-)";
  out += '\n';
}

void append_mode_changes(std::string& out, const std::vector<FileStat>& files) {
  char buf[64];
  for (const auto& f : files) {
    if (f.old_mode == f.new_mode) continue;
    if (f.old_mode == 0) std::snprintf(buf, sizeof buf, " create mode %06o ", f.new_mode);
    else if (f.new_mode == 0) std::snprintf(buf, sizeof buf, " delete mode %06o ", f.old_mode);
    else std::snprintf(buf, sizeof buf, " mode change %06o => %06o ", f.old_mode, f.new_mode);
    out += buf;
    out += (f.new_mode == 0 ? old_name(f) : f.path) + "\n";
  }
}

}  // namespace

std::string stat_text(const std::vector<FileStat>& files) {
  const StatLayout layout(files);
  std::string out;
  for (const auto& f : files) {
    append_name(out, f, layout);
    out += " | ";
    append_count(out, f, layout);
    out += '\n';
  }
  append_totals(out, files.size(), layout);
  append_mode_changes(out, files);
  return out;
}

}  // namespace ws

namespace ws::proposal {

std::optional<std::string> refuse_entry(std::string_view path, std::uint32_t mode,
                                        const std::vector<std::string>& protected_paths) {
  if (auto rej = check_path(path, proposal_policy(protected_paths))) return rej->message();
  return refuse_file_mode(path, mode);
}

std::string short_id(const std::string& id) { return id.substr(0, 12); }

std::string normalise_branch(const std::string& branch) {
  if (branch.rfind("refs/", 0) == 0) return branch;
  return "refs/heads/" + branch;
}

}  // namespace ws::proposal

namespace ws {

std::string branch_display(const std::string& ref) {
  static constexpr std::string_view kHeads = "refs/heads/";
  return ref.compare(0, kHeads.size(), kHeads) == 0 ? ref.substr(kHeads.size()) : ref;
}

}  // namespace ws
