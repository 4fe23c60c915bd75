// One changed file of a proposal as a diffstat counts it: what ws-commit
// prints after staging and `ws-apply --show` before the diff (ws(7),
// PROPOSALS). Kept below the proposal layer so that workspace (the policy
// paths of a change, policy_change.h) can name it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "libcheck/view.h"

namespace ws {

struct FileStat {
  std::string path;
  std::string old_path;  // for renames
  ChangeStatus status = ChangeStatus::modified;
  std::size_t additions = 0;
  std::size_t deletions = 0;
  bool binary = false;
  std::uint32_t old_mode = 0;  // 0 when added
  std::uint32_t new_mode = 0;  // 0 when deleted
  std::uint64_t old_size = 0;  // bytes, as git's "Bin A -> B bytes" shows them
  std::uint64_t new_size = 0;
  // Either side holds a secret (ws(7), the secret kind): shown by its path
  // only; no counts, sizes or ids, and never paired as a rename.
  bool secret = false;
};

}  // namespace ws
