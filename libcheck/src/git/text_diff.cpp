// unified_diff (text_diff.h): libgit2's patch of two buffers, printed.
#include "libcheck/text_diff.h"

#include <git2.h>

#include <string>

#include "git_util.h"

namespace ws {

Result<std::string> unified_diff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return std::string();
  git::ensure_init();
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.context_lines = 3;
  const std::string name(path);
  git_patch* raw = nullptr;
  if (git_patch_from_buffers(&raw, before.data(), before.size(), name.c_str(), after.data(), after.size(),
                             name.c_str(), &opts) < 0)
    return git::error(Errc::environment, "cannot compare the bytes of '" + name + "'");
  git::Patch patch(raw);
  git_buf buf = GIT_BUF_INIT;
  if (git_patch_to_buf(&buf, patch.get()) < 0) return git::error(Errc::environment, "cannot print the diff of '" + name + "'");
  std::string out(buf.ptr, buf.size);
  git_buf_dispose(&buf);
  return out;
}

}  // namespace ws
