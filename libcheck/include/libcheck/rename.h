// ws rename (ws-rename(1)): a definition's name, or a field of a kind with
// fields, changed in its own file and in every file that refers to it, in
// the working tree, all or nothing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "libcheck/buffer_overlay.h"
#include "libcheck/known_definitions.h"
#include "libcheck/result.h"
#include "libcheck/source.h"
#include "libcheck/workspace.h"

namespace ws {

struct RenameRequest {
  std::string kind;      // a kind's name ("agent"), or "field"
  std::string old_name;  // "Billing"; for a field, OWNER.FIELD: "Ticket.Status"
  std::string new_name;  // "Payments"; for a field, the field's new name: "State"
};

// One change in a file: the bytes of `span` (in the file as read) become `text`.
struct TextEdit {
  Span span;
  std::string text;
};

struct FileRename {
  std::string path;
  std::string before;  // the bytes read; the write checks the file still holds them
  std::string after;
  std::vector<TextEdit> edits;  // in file order
  bool defines = false;         // the renamed definition's (or field's) own file
};

struct RenamePlan {
  std::string kind;        // the kind renamed; for a field, the owner's kind
  std::string old_symbol;  // "Billing", "Ticket.Status"
  std::string new_symbol;  // "Payments", "Ticket.State"
  std::vector<FileRename> files;  // in path order
  std::size_t references = 0;     // edits of references, in all files
};

// What `request` renames in the working tree of `ws` (a worktree view,
// changes only or whole), and every file's new bytes; nothing is written.
// `known` (compile.h, saved_base_definitions) names the unchanged files
// that refer to the name, so only those and the changed files are read;
// null: every file of a kind that can refer to it is read. Every file to
// change is read from the disk as a write reads it (no link, one name,
// under the size cap) and parsed again, and its new bytes must read back
// as the same definition with only the name changed. Errors: an unknown
// kind or a bad new name (usage); the name not defined, or defined twice;
// the new name taken; a file that cannot be read or would not read back
// (refused). ws-rename(1) has the messages. `buffers` (an editor's, see
// buffer_overlay.h): files whose bytes are taken from there, not the disk.
Result<RenamePlan> plan_rename(const Workspace& ws, const RenameRequest& request, const KnownDefinitions* known,
                               const Buffers* buffers = nullptr);

// A definition (kind and name) or one of its fields (member), as an editor
// asks for it.
struct Symbol {
  std::string kind;
  std::string name;
  std::string member;  // empty: the definition itself
};

// A place in a file that spells a symbol: its declaration (the definition's
// name, the field's) or a reference to it.
struct SymbolUse {
  std::string path;
  Span span;
  bool declaration = false;
};

// Every place in the working tree of `ws` (and `buffers`) that spells
// `symbol`, in path order, read as plan_rename reads them; with
// `declarations_only`, where it is declared. Errors: an unknown kind, a
// file that cannot be read.
Result<std::vector<SymbolUse>> find_symbol_uses(const Workspace& ws, const Symbol& symbol,
                                                const KnownDefinitions* known, const Buffers* buffers,
                                                bool declarations_only);

// Writes `plan`'s files, every one or none (WorkspaceRoot::replace_all):
// each must still hold the bytes it had when planned.
Status apply_rename(const Workspace& ws, const RenamePlan& plan);

}  // namespace ws
