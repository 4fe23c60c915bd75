#include "commit_config.h"

#include <git2.h>

#include "git_util.h"
#include "secret_content.h"

namespace ws {

namespace {

const std::string kConfigPath = ".ws/config.json";
const std::string kInvalid = "invalid " + kConfigPath;

// parse_workspace_config's messages ("invalid .ws/config.json: ...") say
// which commit's file they are about.
Error in_commit(Error e, const std::string& commit) {
  if (e.message.rfind(kInvalid, 0) == 0) e.message.insert(kInvalid.size(), " in commit " + commit.substr(0, 12));
  return e;
}

Error invalid_in(const std::string& commit, const std::string& what) {
  return in_commit(make_error(Errc::invalid, kInvalid + ": " + what, kConfigPath), commit);
}

// The blob's size from its header, so that an oversized one is never inflated.
Result<std::size_t> blob_size(git_repository* repo, const std::string& blob_hex) {
  git_oid oid;
  if (!git::from_hex(blob_hex, oid)) return make_error(Errc::invalid, "not a blob id: '" + blob_hex + "'");
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) < 0) return git::error(Errc::environment, "cannot open the object database");
  git::Odb odb(raw);
  std::size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  if (git_odb_read_header(&size, &type, odb.get(), &oid) < 0)
    return git::error(Errc::environment, "cannot read blob " + blob_hex);
  return size;
}

}  // namespace

Result<WorkspaceConfig> config_at_commit(const Repository& repo, const std::string& commit) {
  auto entry = repo.entry_at(commit, kConfigPath);
  if (!entry) return entry.error();
  if (!*entry) return WorkspaceConfig{};
  const ViewEntry& e = **entry;
  if (e.mode != kModeFile && e.mode != kModeExec) return invalid_in(commit, "not a regular file");
  // A secret's bytes are never read under any path (ws(7), SECRETS): its
  // keys would be quoted by the parse errors.
  SecretBlobs secrets;
  if (Status st = detail::add_commit_secrets(repo.raw(), commit, secrets); !st) return st.error();
  if (secrets.contains(e.blob_id)) return invalid_in(commit, "it holds a secret's bytes, which are never read");
  auto size = blob_size(repo.raw(), e.blob_id.hex());
  if (!size) return size.error();
  if (*size > kDefaultSizeCap)
    return invalid_in(commit, "larger than " + std::to_string(kDefaultSizeCap) + " bytes");
  auto text = repo.read_blob(e.blob_id.hex());
  if (!text) return text.error();
  auto parsed = parse_workspace_config(*text);
  if (!parsed) return in_commit(parsed.error(), commit);
  return parsed;
}

}  // namespace ws
