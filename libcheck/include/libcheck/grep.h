// ws-grep: RE2 search over the files of a view, printed like ripgrep with
// --no-heading, plus structure ripgrep lacks (kinds, syntax classes,
// semantic references). RE2 runs in linear time whatever the pattern, so a
// pattern from an untrusted caller can never hang a search.
//
// What is searched: every regular file of the view that is not deleted,
// including unrouted files and workspace configuration (.ws/**), as rg would
// search a checkout; --kind restricts to definitions of those kinds. Never
// searched: .secrets/ content (skipped before anything is read), symlinks and
// submodules (never followed), working-tree files with several hard links
// (refused when opened), binary files (a NUL byte anywhere).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libcheck/definition.h"
#include "libcheck/ignore_glob.h"
#include "libcheck/kinds.h"
#include "libcheck/known_definitions.h"
#include "libcheck/pathspec.h"
#include "libcheck/result.h"
#include "libcheck/view.h"

namespace ws {

struct WorkspaceConfig;

enum class GrepMode {
  lines,                // path:line:text (default)
  only_matching,        // -o: path:line:match, one per match
  files,                // -l: paths with a result
  files_without_match,  // -L: paths of the files searched without one
  count,                // -c: path:count (matching lines; matches with -o)
  list,                 // --files: the paths that would be searched; nothing is matched
};

// Modes that print paths alone, one a line (NUL-ended with -z).
inline bool prints_paths_only(GrepMode m) {
  return m == GrepMode::files || m == GrepMode::files_without_match || m == GrepMode::list;
}

// The names a kind's reader gives definitions, kept across searches by a
// caller that searches the same files again. A name depends only on the
// kind pack (its digest), the kind, the path and the bytes, all in the key,
// so an entry is never stale. Safe to use from a search's threads; at most
// kMaxEntries are kept, the whole set dropped when full.
class DefinitionNames {
 public:
  static constexpr std::size_t kMaxEntries = 1u << 18;
  // The name of `bytes` read as `kind` at `path` ("" for none).
  std::string name(const KindPack& pack, const Kind& kind, std::string_view path, std::string_view bytes);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::string> names_;
};

struct GrepOptions {
  // What to match. Several patterns are an alternation, as with rg -e.
  // A pattern holding '\n' is one pattern per line, as with grep.
  std::vector<std::string> patterns;
  bool fixed_strings = false;  // -F
  bool ignore_case = false;    // -i
  bool word = false;           // -w: not preceded or followed by a word character
  bool invert = false;         // -v: select the lines that do not match

  // Where to look.
  std::vector<std::string> kinds;       // --kind (repeatable); 'secret' is refused
  // --in: a pattern match counts only if it starts inside a range of one of
  // these classes (classify_syntax by the file's kind, or its extension).
  std::vector<SyntaxClass> in;
  // --ref / --defines SYMBOL: positions from the readers instead of pattern
  // matches, printed with their column; patterns, if any, then filter the
  // lines (-v inverts the filter) and --in does not apply.
  // Repeated, any of the symbols; --ref and --defines are exclusive.
  std::vector<std::string> ref;
  std::vector<std::string> defines;
  // For --ref: what the saved index of the view's base commit knows
  // (compile.h, saved_base_definitions). An unchanged file it knows is
  // answered from it: not read at all without a reference asked for, read
  // for its lines only with one. Only for a view opened with statuses
  // (ViewSpec::statuses), whose 'unchanged' means the base's bytes. Null:
  // every file is read and parsed.
  const KnownDefinitions* known = nullptr;
  // The names of definitions read by earlier searches (ws mcp keeps one per
  // connection): a JSON record's name is then read once for given bytes.
  // Null: each matching file is parsed for its name.
  DefinitionNames* names = nullptr;
  // The workspace's configuration: a record of a file that is not a
  // definition (README.md, docs/, the "ignore" globs) says kind "none", as
  // ws-ls does. Null: every file no kind reads says "unrouted".
  const WorkspaceConfig* config = nullptr;
  std::vector<Pathspec> pathspecs;
  // -g/--glob: every argument's globs in command-line order (search_glob.h).
  std::vector<IgnoreGlob> globs;

  // How to print.
  GrepMode mode = GrepMode::lines;
  bool count_matches = false;  // -c counts matches rather than lines (set with -c -o)
  bool line_number = true;     // -n (default) / -N
  bool column = false;         // --column (always on for --ref and --defines)
  bool nul = false;            // -z: NUL after each path instead of ':' (rg -0)
  // -I/--no-filename: lines and counts without their path (rg -I); paths
  // alone (-l, -L, --files) and JSON records still carry it.
  bool filename = true;
  // Text output names paths from this folder, as rg and git grep do in a
  // subfolder; JSON and -z output from the root (ws(7), PATHSPECS).
  PathPrefix shown_from;
  bool color = false;          // ripgrep's default colours
  bool json = false;           // JSON Lines records, see grep_view
  // Paths and text shown with their control characters escaped, for a
  // terminal (ws(7), TERMINAL OUTPUT); off, the output is rg's bytes.
  bool terminal = false;
  std::optional<std::size_t> max_count;  // -m: selected lines per file
  std::size_t before = 0;      // -B
  std::size_t after = 0;       // -A
  std::optional<std::size_t> max;  // --max: results printed in all (0: only the Grep-Truncated record)
  // -q without --stats, as rg: the search stops at the first result; no
  // file is read after one has a result, and the results count those found.
  bool stop_at_first = false;
};

// A compiled search. Shared, immutable and safe to use from many threads.
class Matcher {
 public:
  // Compiles `o.patterns` with -F/-i/-w applied. An invalid pattern is an
  // Errc::usage error: "invalid pattern '(a': missing ): (a" (RE2's own words).
  static Result<Matcher> compile(const GrepOptions& o);

  // False when there is no pattern (a --ref/--defines search without -e).
  bool has_pattern() const { return static_cast<bool>(impl_); }

  // The leftmost match starting in [from, to) of `text` (a whole file: the
  // bytes around give ^, $ and word boundaries their context). A match never
  // spans a newline, so searching a whole buffer equals searching line by line.
  bool find(std::string_view text, std::size_t from, std::size_t to, std::size_t& start,
            std::size_t& end) const;

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
};

// One selected line of a file, or one position of a --ref/--defines result.
struct LineHit {
  std::uint32_t line = 0;        // 1-based
  std::uint32_t start = 0;       // byte offset of the line in the file
  std::uint32_t end = 0;         // end of the line, before its '\n'
  std::uint32_t span_begin = 0;  // index into FileHits::spans
  std::uint32_t span_count = 0;  // matches on the line that count (none with -v)
  bool counted = true;  // false: a line past -m shown in trailing context (as rg 13 does)
  std::uint32_t symbol = 0;  // --ref/--defines: which symbol, by its place in GrepOptions
};

struct MatchSpan {
  std::uint32_t start = 0;  // byte offsets in the file
  std::uint32_t end = 0;
};

struct FileHits {
  std::vector<LineHit> hits;  // in file order
  std::vector<MatchSpan> spans;
  std::size_t counted() const;  // hits with counted set
};

// How lines are selected in one buffer.
struct SelectOptions {
  bool invert = false;
  std::optional<std::size_t> max_count;
  std::size_t after = 0;       // trailing context, for the lines shown past -m
  bool all_spans = true;       // false: the first counting match of a line is enough
  // --in: a match counts only if its start lies in a range of a class in `in`.
  const std::vector<ClassRange>* classes = nullptr;
  std::vector<SyntaxClass> in;
};

// The selected lines of one file's bytes, with the matches that count.
FileHits select_lines(const Matcher& m, std::string_view bytes, const SelectOptions& o);

// A symbol as --ref and --defines take it: Root.Name or Root.Name.Member.
struct SymbolQuery {
  const Kind* kind = nullptr;  // the kind whose root it is
  std::string name;
  std::string member;  // empty: the definition itself
  std::string text;
};
Result<SymbolQuery> parse_symbol(const KindPack& kinds, std::string_view symbol);

struct GrepSummary {
  std::size_t files_searched = 0;  // files whose bytes were searched
  // Of those, files whose references came from the base's index instead of
  // their reader (GrepOptions::known): read for their lines at most.
  std::size_t files_from_index = 0;
  std::size_t files_matched = 0;   // files with at least one result
  std::size_t results = 0;         // results found, printed or not
  std::size_t omitted = 0;         // results past --max
  std::vector<std::string> binary_skipped;  // paths, for --stats
  std::vector<std::string> links_skipped;   // symlinks and submodules, for --stats
  std::vector<std::string> hard_links_skipped;  // working-tree files with several links, for --stats
  std::size_t secrets_skipped = 0;          // under .secrets/: never opened
  // Other paths holding a secret's bytes (secrets.h), never searched or
  // shown; in path order. Found by blob id, or for a working-tree file with
  // a match, by hashing what was read.
  std::vector<std::string> secret_bytes_skipped;
  std::vector<Error> errors;  // unreadable files, refused paths, unmatched pathspecs
};

// Searches `view` and writes the results to `out` in path order, whatever the
// number of threads. Text output is rg --no-heading's; a capped output ends
// with "Grep-Truncated: N more results (raise --max)". JSON Lines records:
//   {"type":"match","path","kind","name","line","column","start","end","text","match"}
//     one per match (per selected line with -v: then start/end are the line's
//     and "match" is null); start/end are byte offsets in the file, column is
//     1-based in bytes, text is the line without its newline; "symbol" is added
//     for --ref/--defines;
//   {"type":"context","path","line","text"} with -A/-B/-C;
//   {"type":"file","path","kind","name","count"} with -l, -L (count 0) or -c;
//   {"type":"Grep-Truncated","omitted","max"} when capped;
//   {"type":"summary","files_searched","files_matched","results","binary_skipped",
//    "links_skipped" (symlinks, submodules and hard links)} always last.
// With -L a result is a file without a match; with --files (GrepMode::list)
// it is a file that would be searched, listed without reading it (unless
// it is a working-tree file of a view with secrets: it is read to make sure
// it holds no secret's bytes), in text only.
// Fails (Errc::usage) on an unknown or secret kind, a bad symbol, nothing to
// search for, or --files with --json; per-file trouble goes to
// GrepSummary::errors.
Result<GrepSummary> grep_view(const View& view, const KindPack& kinds, const GrepOptions& options,
                              std::ostream& out);

}  // namespace ws
