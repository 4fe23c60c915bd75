// Writing and removing one file by what its writer last saw of it
// (file_edit.h, ws-mcp(1)).
#include "libcheck/file_edit.h"

#include "libcheck/path_policy.h"
#include "libcheck/repository.h"
#include "libcheck/secrets.h"
#include "libcheck/workspace.h"
#include "printable_path.h"

namespace ws {

namespace {

// A file read for writing: what it is, and its bytes to hand back to the
// write discipline as the bytes it must still hold.
struct ReadForWrite {
  FileOnDisk file;
  std::string bytes;
};

std::string quoted(std::string_view path) { return "'" + detail::printable_path(path) + "'"; }

Status writable(const Workspace& ws, std::string_view path, const char* verb) {
  if (!ws.root) return make_error(Errc::environment, "writing a file needs a working tree; this repository is bare");
  if (auto bad = check_path(path, write_policy(ws.config.protected_paths)))
    return make_error(Errc::refused, bad->message(), std::string(path), to_rule(bad->rule));
  // A path whose bytes the view knows (by blob id) as a secret's is
  // refused before anything is read.
  if (const ViewEntry* e = ws.view.find(path); e && ws.view.is_secret(*e))
    return make_error(Errc::refused, secret_bytes_refusal(path), std::string(path), Rule::secret);
  // Definitions only: a file no kind reads (README.md, a CI workflow, a
  // hook's script) is not the workspace's to change through a definition
  // editor, whatever the protected paths say.
  const Kind* kind = ws.kinds.route(path);
  if (!kind || kind == ws.kinds.secret_kind())
    return make_error(Errc::refused,
                      "refused to " + std::string(verb) + " " + quoted(path) +
                          ": not a definition (no kind reads this path); only definitions are written",
                      std::string(path), Rule::not_a_definition);
  return Ok{};
}

Result<ReadForWrite> read_for_write(const Workspace& ws, std::string_view path, const char* verb) {
  if (auto ok = writable(ws, path, verb); !ok) return ok.error();
  auto read = ws.root->read_for_write(path, ws.config.size_cap);
  if (!read.ok && read.error.rule == FileRule::not_found) return ReadForWrite{};
  if (!read.ok) {
    read.error.path = std::string(path);
    return make_error(read.error.rule == FileRule::io ? Errc::environment : Errc::refused, read.error.message(),
                      std::string(path), to_rule(read.error.rule));
  }
  // Bytes of a secret's size are hashed to be compared with the secrets'
  // ids, as every tool does with a working-tree file, and never shown.
  if (ws.view.secret_blobs().holds_bytes(read.bytes))
    return make_error(Errc::refused, secret_bytes_refusal(path), std::string(path), Rule::secret);
  ReadForWrite out;
  out.file = FileOnDisk{true, ObjectId::from_hex(Repository::hash_blob(read.bytes)), read.bytes.size()};
  out.bytes = std::move(read.bytes);
  return out;
}

Error not_as_expected(const char* verb, std::string_view path, const FileOnDisk& now,
                      const std::optional<ObjectId>& expected) {
  std::string found = now.exists ? "blob " + now.blob.hex() : "no file";
  std::string wanted = expected ? "blob " + expected->hex() : "no file";
  if (now.exists && !expected)
    return make_error(Errc::refused,
                      "refused to " + std::string(verb) + " " + quoted(path) + ": it exists (" + found +
                          "); read it and pass its blob id as the expected content",
                      std::string(path), Rule::exists);
  return make_error(Errc::refused,
                    "refused to " + std::string(verb) + " " + quoted(path) + ": it holds " + found + ", not the expected " + wanted +
                        "; read it again and redo the change",
                    std::string(path), Rule::content_changed);
}

bool holds(const FileOnDisk& now, const std::optional<ObjectId>& expected) {
  return expected ? now.exists && now.blob == *expected : !now.exists;
}

}  // namespace

Result<FileOnDisk> file_for_write(const Workspace& ws, std::string_view path, const char* verb) {
  auto read = read_for_write(ws, path, verb);
  if (!read) return read.error();
  return read->file;
}

Result<FileOnDisk> write_file(const Workspace& ws, std::string_view path, std::string_view bytes,
                              const std::optional<ObjectId>& expected) {
  auto now = read_for_write(ws, path, "write");
  if (!now) return now.error();
  if (!holds(now->file, expected)) return not_as_expected("write", path, now->file, expected);
  if (bytes.size() > ws.config.size_cap) return too_large_error(path, bytes.size(), ws.config.size_cap);
  // A secret's bytes are never written under another name, where they
  // would be staged, shown and pushed (and the answer would hash them).
  if (ws.view.secret_blobs().holds_bytes(bytes))
    return make_error(Errc::refused, secret_bytes_refusal(path), std::string(path), Rule::secret);
  Status written = now->file.exists
                       ? ws.root->replace_all({{std::string(path), now->bytes, std::string(bytes)}}, ws.config.size_cap)
                       : ws.root->create_new(path, bytes, ws.config.size_cap);
  if (!written) return written.error();
  return FileOnDisk{true, ObjectId::from_hex(Repository::hash_blob(bytes)), bytes.size()};
}

Result<FileOnDisk> remove_file(const Workspace& ws, std::string_view path, const ObjectId& expected) {
  auto now = read_for_write(ws, path, "delete");
  if (!now) return now.error();
  if (!holds(now->file, expected)) return not_as_expected("delete", path, now->file, expected);
  if (auto removed = ws.root->remove_if_holds(path, now->bytes, ws.config.size_cap); !removed) return removed.error();
  return now->file;
}

}  // namespace ws
