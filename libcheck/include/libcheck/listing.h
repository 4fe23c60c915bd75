// ws-ls: the definitions of a view, filtered, with names where asked.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/kinds.h"
#include "libcheck/pathspec.h"
#include "libcheck/view.h"
#include "libcheck/workspace.h"

namespace ws {

struct ListOptions {
  std::vector<std::string> kinds;   // --kind; "secret" is the only way to list secrets
  bool changed_only = false;        // --changed: changed entries, deleted ones included
  std::vector<Pathspec> pathspecs;
  bool want_names = false;          // read each definition for its name (-l, --json)
  std::optional<std::size_t> max;   // --max: entries listed (0: only the truncation record)
};

struct ListedEntry {
  const ViewEntry* entry = nullptr;
  const Kind* kind = nullptr;  // null: unrouted or workspace configuration
  bool config = false;         // .ws/ and root dotfiles
  // No kind reads it and ws-build never reports it (path_route.h:
  // not_definition or ignored): README.md, LICENSE, .github/, docs/. Any
  // other file no kind reads is unrouted.
  bool not_definition = false;
  // Its bytes are a secret's (View::is_secret): its blob id and size are
  // never shown, and its name is the file name or none.
  bool secret = false;
  // Its path is plain (path_policy.h is_plain_path): ASCII letters, digits,
  // '_', '-', '.' and '/' only, so no byte of it needs escaping on a terminal.
  bool plain_path = false;
  std::string name;            // empty when not asked for, missing or unreadable
  std::optional<std::uint64_t> size;
};

struct Listing {
  std::vector<ListedEntry> entries;  // sorted by path
  std::size_t omitted = 0;           // entries past --max
  std::vector<Error> refused;        // not listed: refused by the path policy, links,
                                     // working-tree files with several hard links; path order
  std::vector<std::size_t> unmatched_pathspecs;  // indices into options.pathspecs
};

// Never opens secret content: a secret's name is its file name. Another path
// holding a secret's bytes is refused (secret_bytes_refusal), unless deleted.
Result<Listing> list_view(const Workspace& ws, const ListOptions& options);

// Why a symlink or submodule entry (is_link_mode) is neither listed nor
// read: the one message, by the rule symlink or submodule.
Error link_refusal(const ViewEntry& e);

// The label of an entry's kind as ws-ls prints it: the kind's name,
// "config", "none" (not a definition) or "unrouted".
std::string kind_label(const ListedEntry& e);
// "added", "modified", "deleted", "renamed" or "unchanged".
const char* status_word(ChangeStatus s);

// The records of ws-ls --json (schemas/output/ws-ls.json; ws(7), JSON
// OUTPUT): an "entry" per listed entry, and "Listing-Truncated" for the
// entries past `max`. A secret's blob id and size are never in them.
nlohmann::ordered_json listed_entry_json(const ListedEntry& e);
nlohmann::ordered_json listing_truncated_json(std::size_t omitted, std::size_t max);

}  // namespace ws
