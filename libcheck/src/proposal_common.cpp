#include <cstdlib>
#include <cstring>
#include <optional>
#include <ctime>
#include <set>

#include "libcheck/path_policy.h"
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

namespace {

bool parse_date(const char* text, git_time_t& when, int& offset) {
  if (!text || !*text) return false;
  std::string s = text;
  if (s[0] == '@') {
    char* end = nullptr;
    long long secs = std::strtoll(s.c_str() + 1, &end, 10);
    if (end == s.c_str() + 1) return false;
    when = secs;
    offset = 0;
    while (*end == ' ') ++end;
    if ((*end == '+' || *end == '-') && std::strlen(end) >= 5) {
      int hh = (end[1] - '0') * 10 + (end[2] - '0'), mm = (end[3] - '0') * 10 + (end[4] - '0');
      offset = (hh * 60 + mm) * (*end == '-' ? -1 : 1);
    }
    return true;
  }
  std::tm tm{};
  if (strptime(s.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm) == nullptr) return false;
  when = timegm(&tm);
  offset = 0;
  return true;
}

std::string config_string(git_repository* repo, const char* key) {
  git_config* raw = nullptr;
  if (git_repository_config_snapshot(&raw, repo) < 0) return "";
  git::Config cfg(raw);
  const char* value = nullptr;
  if (git_config_get_string(&value, cfg.get(), key) < 0 || !value) return "";
  return value;
}

}  // namespace

Result<git::Signature> signature(git_repository* repo, const char* who) {
  std::string prefix = std::string("GIT_") + who;
  const char* env_name = std::getenv((prefix + "_NAME").c_str());
  const char* env_email = std::getenv((prefix + "_EMAIL").c_str());
  std::string name = env_name && *env_name ? env_name : config_string(repo, "user.name");
  std::string email = env_email && *env_email ? env_email : config_string(repo, "user.email");
  if (name.empty() || email.empty())
    return make_error(Errc::environment,
                      std::string("no ") + (std::string(who) == "AUTHOR" ? "author" : "committer") +
                          " identity: set user.name and user.email (git config) or " + prefix + "_NAME and " +
                          prefix + "_EMAIL");
  git_time_t when = std::time(nullptr);
  int offset = 0;
  parse_date(std::getenv((prefix + "_DATE").c_str()), when, offset);
  git_signature* sig = nullptr;
  if (git_signature_new(&sig, name.c_str(), email.c_str(), when, offset) < 0)
    return git::error(Errc::environment, "invalid identity '" + name + " <" + email + ">'");
  return git::Signature(sig);
}

std::string ref_target(git_repository* repo, const std::string& name) {
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo, name.c_str()) < 0) return "";
  return git::to_hex(oid);
}

Result<git::Commit> lookup_commit(git_repository* repo, const std::string& commit_hex) {
  git_oid oid;
  if (!git::from_hex(commit_hex, oid)) return make_error(Errc::not_found, "not a commit id: '" + commit_hex + "'");
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) < 0) return git::error(Errc::not_found, "cannot read commit " + commit_hex);
  return git::Commit(raw);
}

Result<git::Tree> commit_tree(git_repository* repo, const std::string& commit_hex) {
  if (commit_hex.empty()) return git::Tree(nullptr);
  auto c = lookup_commit(repo, commit_hex);
  if (!c) return c.error();
  git_tree* raw = nullptr;
  if (git_commit_tree(&raw, c->get()) < 0) return git::error(Errc::environment, "cannot read tree of " + commit_hex);
  return git::Tree(raw);
}

Result<std::vector<FileStat>> file_stats(git_repository* repo, git_tree* from, git_tree* to) {
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  git_diff* raw = nullptr;
  if (git_diff_tree_to_tree(&raw, repo, from, to, &opts) < 0)
    return git::error(Errc::environment, "cannot compare trees");
  git::Diff diff(raw);
  git_diff_find_options fo;
  git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
  fo.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_EXACT_MATCH_ONLY;
  git_diff_find_similar(diff.get(), &fo);
  std::vector<FileStat> out;
  for (std::size_t i = 0, n = git_diff_num_deltas(diff.get()); i < n; ++i) {
    const git_diff_delta* d = git_diff_get_delta(diff.get(), i);
    FileStat f;
    f.path = d->status == GIT_DELTA_DELETED ? d->old_file.path : d->new_file.path;
    switch (d->status) {
      case GIT_DELTA_ADDED: f.status = ChangeStatus::added; break;
      case GIT_DELTA_DELETED: f.status = ChangeStatus::deleted; break;
      case GIT_DELTA_RENAMED: f.status = ChangeStatus::renamed; f.old_path = d->old_file.path; break;
      default: f.status = ChangeStatus::modified; break;
    }
    git_patch* praw = nullptr;
    if (git_patch_from_diff(&praw, diff.get(), i) == 0 && praw) {
      std::size_t ctx = 0, add = 0, del = 0;
      git_patch_line_stats(&ctx, &add, &del, praw);
      f.additions = add;
      f.deletions = del;
      git_patch_free(praw);
    }
    f.binary = (d->flags & GIT_DIFF_FLAG_BINARY) != 0;
    out.push_back(std::move(f));
  }
  return out;
}

std::optional<std::string> refuse_entry(std::string_view path, std::uint32_t mode,
                                        const std::vector<std::string>& protected_paths) {
  if (auto rej = check_path(path, proposal_policy(protected_paths))) return rej->message();
  std::string p(path);
  if (mode == GIT_FILEMODE_LINK)
    return "refused path '" + p + "': symlink (a proposal holds plain files only)";
  if (mode == GIT_FILEMODE_COMMIT)
    return "refused path '" + p + "': submodule (a proposal holds plain files only)";
  if (mode == GIT_FILEMODE_TREE) return "refused path '" + p + "': directory entry where a file was expected";
  return std::nullopt;
}

std::string short_id(const std::string& id) { return id.substr(0, 12); }

std::string normalise_branch(const std::string& branch) {
  if (branch.rfind("refs/", 0) == 0) return branch;
  return "refs/heads/" + branch;
}

std::string branch_display(const std::string& ref) {
  return ref.rfind("refs/heads/", 0) == 0 ? ref.substr(11) : ref;
}

}  // namespace ws::proposal
