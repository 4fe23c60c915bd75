// What a saved index of a view's base commit already knows of the
// definitions the view leaves unchanged: who refers to a name, and each
// definition as its reader read it from the base commit's bytes. ws-grep
// --ref answers an unchanged file from it instead of parsing the file again
// (ws-grep(1), --ref). The compile layer, which keeps the index, provides
// it (compile.h, saved_base_definitions); the query layer reads it.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "libcheck/definition.h"
#include "libcheck/kinds.h"

namespace ws {

class KnownDefinitions {
 public:
  virtual ~KnownDefinitions() = default;

  // Whether the definition at `path` of the base commit is known. An entry
  // the view leaves unchanged has the base commit's bytes at that path, so
  // what is known of it holds for the view too.
  virtual bool knows(std::string_view path) const = 0;
  // The paths of the known definitions with a reference to `name` of kind
  // `kind`, members included (a reference to N.Ticket.Status refers to
  // N.Ticket), in path order.
  virtual void referrers(const Kind& kind, std::string_view name,
                         const std::function<void(std::string_view path)>& f) const = 0;
  // The paths of the known definitions of kind `kind` named `name`, in
  // path order (more than one is the duplicate a build reports).
  virtual void definers(const Kind& kind, std::string_view name,
                        const std::function<void(std::string_view path)>& f) const = 0;
  // Every name a known definition of kind `kind` has, with the path of each
  // definition of it (ws-lsp(1) completes names from them).
  virtual void names(const Kind& kind,
                     const std::function<void(std::string_view name, std::string_view path)>& f) const = 0;
  // The definition at `path` as its reader read it: name, members and
  // references with their spans in the file's bytes (no reference text);
  // nullopt when it is not known or its saved bytes fail their check.
  virtual std::optional<Definition> definition(std::string_view path) const = 0;
};

}  // namespace ws
