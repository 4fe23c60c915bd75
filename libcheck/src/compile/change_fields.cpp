// item_changed_fields (change_fields.h): the two sides' bytes under the
// rules run_job (compile.cpp) reads them by, then read/definition_fields.
#include "change_fields.h"

#include <optional>

#include "definition_fields.h"
#include "libcheck/path_policy.h"

namespace ws::compile_detail {

namespace {

// The bytes a side holds, when a build may read them: not a secret's, not
// over the size cap; nullopt otherwise or on any error (the fields are
// information, the build has reported what is wrong with the file).
std::optional<std::string> side_bytes(const View& view, const WorkspaceConfig& config, const ViewEntry& e,
                                      bool base_side) {
  if (base_side ? view.base_is_secret(e) : view.is_secret(e)) return std::nullopt;
  ViewEntry probe = e;
  if (base_side) {
    probe.status = ChangeStatus::deleted;  // size_of() then looks at the base blob
    probe.from_worktree = false;
  }
  if (auto size = view.content().size_of(probe); size && *size > config.size_cap) return std::nullopt;
  Result<std::string> bytes = base_side ? view.content().read_blob(e.base_blob_id.hex()) : view.read(e);
  if (!bytes || bytes->size() > config.size_cap) return std::nullopt;
  if (!base_side && view.bytes_are_secret(e, *bytes)) return std::nullopt;
  return std::move(bytes).value();
}

}  // namespace

std::vector<std::string> item_changed_fields(const View& view, const WorkspaceConfig& config, const Item& it) {
  const Side& b = it.base;
  const Side& v = it.view;
  if (!b.present || !v.present || !b.kind || b.kind != v.kind || v.kind->never_read) return {};
  if (is_secret_path(b.path) || is_secret_path(v.path) || it.entry->base_blob_id.empty()) return {};
  auto before = side_bytes(view, config, *it.entry, true);
  if (!before) return {};
  auto after = side_bytes(view, config, *it.entry, false);
  if (!after) return {};
  return detail::changed_fields(*v.kind, *before, *after);
}

}  // namespace ws::compile_detail
