// One file of the working tree written or removed by what its writer last
// saw of it (ws-mcp(1), write and delete): a blob id, or "absent". The
// path answers to the policy for writing and the bytes go through
// WorkspaceRoot's write discipline (ws(7), WRITING FILES), so a file is its
// old bytes or its new ones, never a part, and a writer working from a
// stale read is refused instead of overwriting what it never saw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libcheck/object_id.h"
#include "libcheck/result.h"

namespace ws {

struct Workspace;

// What the working tree holds at a path: nothing, or a file whose bytes
// have this blob id (git hash-object) and size.
struct FileOnDisk {
  bool exists = false;
  ObjectId blob;
  std::uint64_t size = 0;
};

// `path` as a write finds it. Errors, each with its rule: the path policy
// for writing (check_path with the workspace's protected paths: .git,
// .secrets/, .ws/config.json ...); a file whose bytes are a secret's
// (secret_bytes_refusal), never hashed or measured for the answer; a link
// on the way, a special file, several hard links, over the size cap; a
// path no kind reads, or the secret kind's (Rule::not_a_definition): only
// definitions are written. `verb` ("write", "delete") starts the messages.
Result<FileOnDisk> file_for_write(const Workspace& ws, std::string_view path, const char* verb);

// Writes `bytes` to `path` when it holds what `expected` says: nullopt,
// no file (a new file, its folders made as needed); else a file with that
// blob id. Refused (Rule::content_changed, or Rule::exists for a file that
// should be absent) otherwise, and by file_for_write's rules; bytes over
// the size cap are refused (Rule::too_large). Returns the file as written.
Result<FileOnDisk> write_file(const Workspace& ws, std::string_view path, std::string_view bytes,
                              const std::optional<ObjectId>& expected);

// Removes `path` when it holds the blob `expected`; refused as write_file
// refuses. Returns the file removed.
Result<FileOnDisk> remove_file(const Workspace& ws, std::string_view path, const ObjectId& expected);

}  // namespace ws
