// ws-grep: which files of a view are searched, in parallel, and the printing
// of their results in path order.
#include "libcheck/grep.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "grep_format.h"
#include "libcheck/path_policy.h"
#include "libcheck/path_route.h"
#include "libcheck/reader.h"
#include "libcheck/search_glob.h"
#include "libcheck/workspace.h"
#include "blob_id.h"
#include "parallel.h"

namespace ws {

Result<SymbolQuery> parse_symbol(const KindPack& kinds, std::string_view symbol) {
  SymbolQuery q;
  q.text = std::string(symbol);
  std::vector<std::string_view> parts;
  for (std::size_t from = 0;;) {
    std::size_t dot = symbol.find('.', from);
    parts.push_back(symbol.substr(from, dot == std::string_view::npos ? std::string_view::npos : dot - from));
    if (dot == std::string_view::npos) break;
    from = dot + 1;
  }
  auto bad = [&](const std::string& why) {
    return make_error(Errc::usage, "invalid symbol '" + q.text + "': " + why, q.text, Rule::symbol);
  };
  if (parts.size() < 2 || parts.size() > 3 || std::any_of(parts.begin(), parts.end(), [](auto p) { return p.empty(); }))
    return bad("write Root.Name or Root.Name.Member, e.g. 'Agents.Triage' or 'N.Ticket.Status'");
  q.kind = kinds.by_root(parts[0]);
  if (!q.kind) {
    std::string roots;
    for (const auto& k : kinds.kinds())
      if (!k.symbol_root.empty()) roots += (roots.empty() ? "" : ", ") + k.symbol_root;
    return bad("unknown root '" + std::string(parts[0]) + "'; known roots: " + roots);
  }
  q.name = std::string(parts[1]);
  if (parts.size() == 3) {
    if (q.kind->member_pointer.empty() && q.kind->implicit_members.empty())
      return bad("only definitions with members (node types) take a third part; use '" +
                 std::string(parts[0]) + "." + q.name + "'");
    q.member = std::string(parts[2]);
  }
  return q;
}

namespace {

// The syntax of an unrouted file, from its extension, so --in works on
// workspace files no kind claims (.ws/kinds/*.json).
Format format_of(const Kind* kind, std::string_view path) {
  if (kind) return kind->format;
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext;
  };
  if (ends(".json")) return Format::json;
  if (ends(".cs")) return Format::csharp;
  if (ends(".md")) return Format::markdown;
  return Format::opaque;
}

// not_run: a file -q left unread once another had a result.
enum class Outcome { searched, binary, link, hard_link, secret, error, not_run };

// What a worker found in a file that has something to report, kept until
// the file is printed.
struct Found {
  Error error;        // for Outcome::error
  std::string bytes;  // kept only while the file still has to be printed
  std::size_t bom = 0;  // a leading byte order mark: not text (see Search::run)
  FileHits hits;
  std::string name;
  std::string text;   // formatted output, when workers format
  bool formatted = false;
};

// One per file searched, all built on one thread before the search starts,
// so kept small: most files match nothing and need no Found.
struct Job {
  const ViewEntry* entry = nullptr;
  const Kind* kind = nullptr;
  std::string_view kind_label;  // a kind's name (the pack outlives the search) or a literal
  std::string shown_path;       // text output from a subfolder: the path from there
  // Filled by the worker.
  Outcome outcome = Outcome::searched;
  bool from_index = false;  // its references came from the base's index (GrepOptions::known)
  std::size_t results = 0;
  std::unique_ptr<Found> found;
};

class Search {
 public:
  Search(const View& view, const KindPack& kinds, const GrepOptions& o, const Matcher& m,
         std::vector<SymbolQuery> qs)
      : view_(view), kinds_(kinds), o_(o), m_(m), qs_(std::move(qs)), known_(known_for(o)) {
    if (known_)
      for (const SymbolQuery& q : qs_)
        known_->referrers(*q.kind, q.name, [&](std::string_view path) { known_referrers_.emplace(path); });
  }

  // Whether a file of `kind` can hold what --ref/--defines looks for.
  bool may_hold(const Kind* kind) const {
    if (qs_.empty()) return true;
    if (!kind) return false;
    return std::any_of(qs_.begin(), qs_.end(), [&](const SymbolQuery& q) { return may_hold(kind, q); });
  }

  // Whether a file of `kind` is read at all: -L lists a file that cannot
  // hold the symbol too, once read (it may hold a secret's bytes).
  bool reads(const Kind* kind) const {
    return may_hold(kind) || o_.mode == GrepMode::files_without_match || o_.mode == GrepMode::list;
  }

  bool may_hold(const Kind* kind, const SymbolQuery& q) const {
    if (!o_.defines.empty()) return kind == q.kind;
    if (kind->format == Format::csharp) return true;
    return std::any_of(kind->refs.begin(), kind->refs.end(),
                       [&](const RefSpec& r) { return r.target_kind == q.kind->name; });
  }

  void run(Job& job, bool format_now) const {
    if (o_.mode == GrepMode::list) return list(job, format_now);
    const ViewEntry& e = *job.entry;
    // An unchanged definition the base's index knows: no reference to a
    // symbol asked for, nothing to read; else its references come from the
    // index, and only its bytes are read, for the lines to print. A file
    // the view refuses without opening it (several hard links) is skipped
    // as a read would skip it, so --stats names it either way.
    std::optional<Definition> known;
    if (known_ && e.status == ChangeStatus::unchanged && known_->knows(e.path)) {
      if (auto why = view_.content().refusal(e)) return unreadable(job, *why);
      job.from_index = true;
      if (!known_referrers_.count(e.path)) return;
      known = known_->definition(e.path);
      job.from_index = known.has_value();
    }
    auto bytes = view_.read(e);
    if (!bytes) return unreadable(job, bytes.error());
    std::string_view t = *bytes;
    if (std::memchr(t.data(), '\0', t.size())) {
      job.outcome = Outcome::binary;
      return;
    }
    Found f;
    // A leading UTF-8 byte order mark is not text, as for rg: line 1 starts
    // after it, and columns and offsets count from there (ws-grep(1)).
    f.bom = bom_length(t);
    if (!qs_.empty()) {
      if (may_hold(job.kind)) structural(job, f, t, known ? &*known : nullptr);
    } else {
      lines(job, f, t.substr(f.bom));
    }
    job.results = detail::result_count(f.hits, o_);
    if (!job.results) return;
    // Bytes the view has no id for (an untracked file) that turn out to be
    // a secret's are never shown: checked only for a file with something to
    // print, so a search pays one hash per such matching file, and only
    // where the view has secrets at all.
    if (view_.bytes_are_secret(e, t)) {
      job.outcome = Outcome::secret;
      job.results = 0;
      return;
    }
    if (o_.json && f.name.empty() && job.kind) f.name = name_of(*job.kind, e.path, t);
    f.bytes = std::move(bytes).value();
    keep(job, std::move(f), format_now);
  }

  // The name a JSON record carries: from the caller's names when it keeps
  // them, else read.
  std::string name_of(const Kind& kind, std::string_view path, std::string_view bytes) const {
    if (o_.names) return o_.names->name(kinds_, kind, path, bytes);
    Definition d = read_definition(kind, path, bytes, kinds_);
    return d.has_name ? d.name : std::string();
  }

  // --files: a file is listed as it would be searched, without reading it;
  // only a working-tree file of a view that has secrets is read, to make
  // sure its bytes are no secret's (ws-grep(1)).
  void list(Job& job, bool format_now) const {
    const ViewEntry& e = *job.entry;
    if (auto why = view_.content().refusal(e)) return unreadable(job, *why);
    if (e.from_worktree && !view_.secret_blobs().empty()) {
      auto bytes = view_.read(e);
      if (!bytes) return unreadable(job, bytes.error());
      if (view_.bytes_are_secret(e, *bytes)) {
        job.outcome = Outcome::secret;
        return;
      }
    }
    job.results = 1;
    keep(job, Found(), format_now);
  }

  // A file that could not be read. A link met on the way (a symlinked
  // directory) is skipped like a link entry, and so is a file with several
  // hard links: both are links. A working-tree file found to hold a
  // secret's bytes is skipped like one the view knew to hold them.
  static void unreadable(Job& job, const Error& why) {
    job.outcome = why.rule == Rule::symlink     ? Outcome::link
                  : why.rule == Rule::hard_link ? Outcome::hard_link
                  : why.rule == Rule::secret    ? Outcome::secret
                                                : Outcome::error;
    if (job.outcome == Outcome::error) {
      job.found = std::make_unique<Found>();
      job.found->error = why;
    }
  }

  // Keeps what a file with results has to print: its output, when workers
  // format, or its bytes and hits for the printer.
  void keep(Job& job, Found f, bool format_now) const {
    if (format_now) {
      detail::format_file(f.text, file_of(job, f), f.hits, o_, std::numeric_limits<std::size_t>::max());
      f.formatted = true;
      // Swapped out, not assigned: assigning an empty std::string keeps the
      // old buffer, and the file's bytes would stay allocated until printed.
      std::string().swap(f.bytes);
      f.hits = FileHits();
    }
    job.found = std::make_unique<Found>(std::move(f));
  }

  detail::GrepFile file_of(const Job& job, const Found& f) const {
    return detail::GrepFile{job.entry->path, job.shown_path, std::string_view(f.bytes).substr(f.bom), job.kind_label, f.name,
                            qs_.empty() ? nullptr : &symbol_texts_};
  }

 private:
  void lines(const Job& job, Found& f, std::string_view t) const {
    SelectOptions so;
    so.invert = o_.invert;
    so.max_count = o_.max_count;
    // One line proves the file (-l) or disproves it (-L).
    if (o_.mode == GrepMode::files || o_.mode == GrepMode::files_without_match) so.max_count = 1;
    so.after = o_.mode == GrepMode::lines || o_.mode == GrepMode::only_matching ? o_.after : 0;
    so.all_spans = o_.color || o_.json || o_.mode == GrepMode::only_matching || o_.count_matches;
    so.in = o_.in;
    std::vector<ClassRange> classes;
    std::size_t s, e;
    // Parse only a file that matches at all: most files are rejected by the
    // one RE2 search over the whole buffer.
    if (!o_.in.empty() && m_.find(t, 0, t.size(), s, e)) classes = classify_syntax(format_of(job.kind, job.entry->path), t);
    so.classes = &classes;
    f.hits = select_lines(m_, t, so);
  }

  // Where `d` holds what `q` asks for: its references (--ref) or the name
  // it defines (--defines); spans in the file's bytes.
  std::vector<MatchSpan> positions(const Definition& d, const SymbolQuery& q) const {
    std::vector<MatchSpan> found;
    auto add = [&](const Span& s) { found.push_back({s.start_byte, std::max(s.start_byte, s.end_byte)}); };
    if (!o_.ref.empty()) {
      for (const auto& r : d.refs)
        if (r.target_kind == q.kind->name && r.name == q.name && (q.member.empty() || r.member == q.member))
          add(r.span);
    } else if (d.has_name && d.name == q.name) {
      if (q.member.empty()) add(d.name_span);
      else if (auto it = std::find_if(d.members.begin(), d.members.end(), [&](const Member& mb) { return mb.name == q.member; });
               it != d.members.end())
        add(it->span);
      else if (std::find(q.kind->implicit_members.begin(), q.kind->implicit_members.end(), q.member) !=
               q.kind->implicit_members.end())
        add(d.name_span);  // N.Ticket.Type exists wherever N.Ticket does
    }
    return found;
  }

  // The positions of every symbol asked for (a repeated --ref or --defines:
  // any of them), in file order, each once: a position two symbols find
  // (N.Ticket and N.Ticket.Status) counts for the first given. Spans are
  // moved past the BOM; `symbols` gets the symbol of each.
  std::vector<MatchSpan> all_positions(const Definition& d, std::uint32_t bom, std::vector<std::uint32_t>& symbols) const {
    std::vector<std::pair<MatchSpan, std::uint32_t>> found;
    for (std::uint32_t i = 0; i < qs_.size(); ++i)
      for (const MatchSpan& s : positions(d, qs_[i]))
        if (s.start >= bom) found.push_back({{s.start - bom, s.end - bom}, i});  // no reader points into the BOM
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first.start < b.first.start; });
    std::vector<MatchSpan> out;
    for (const auto& [span, i] : found) {
      if (!out.empty() && out.back().start == span.start && out.back().end == span.end) continue;
      out.push_back(span);
      symbols.push_back(i);
    }
    return out;
  }

  // Whether `t` may hold a symbol asked for: its name appears, or an escape could spell it.
  bool may_mention(std::string_view t) const {
    if (t.find('\\') != std::string_view::npos) return true;
    return std::any_of(qs_.begin(), qs_.end(), [&](const SymbolQuery& q) { return t.find(q.name) != std::string_view::npos; });
  }

  // --ref / --defines: positions from the reader (or from the index, as
  // `known`, which the reader gave for these bytes), optionally filtered by
  // -e. The reader takes the whole file; its positions are moved past the BOM.
  void structural(const Job& job, Found& f, std::string_view file, const Definition* known) const {
    std::string_view t = file.substr(f.bom);
    if (!known && !may_mention(t)) return;
    std::optional<Definition> read;
    if (!known) read = read_definition(*job.kind, job.entry->path, file, kinds_);
    const Definition& d = known ? *known : *read;
    if (d.has_name) f.name = d.name;
    std::vector<std::uint32_t> symbols;
    std::vector<MatchSpan> found = all_positions(d, static_cast<std::uint32_t>(f.bom), symbols);
    std::uint32_t line_no = 1;
    std::size_t counted_to = 0;
    for (std::size_t k = 0; k < found.size(); ++k) {
      const MatchSpan& s = found[k];
      if (s.start > t.size()) continue;
      line_no += static_cast<std::uint32_t>(std::count(t.begin() + counted_to, t.begin() + s.start, '\n'));
      counted_to = s.start;
      const void* nl = s.start ? memrchr(t.data(), '\n', s.start) : nullptr;
      std::size_t ls = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - t.data()) + 1 : 0;
      const void* nr = std::memchr(t.data() + s.start, '\n', t.size() - s.start);
      std::size_t le = nr ? static_cast<std::size_t>(static_cast<const char*>(nr) - t.data()) : t.size();
      if (m_.has_pattern()) {
        std::size_t ms, me;
        if (m_.find(t, ls, le, ms, me) == o_.invert) continue;
      }
      if (o_.max_count && f.hits.hits.size() >= *o_.max_count) break;
      auto begin = static_cast<std::uint32_t>(f.hits.spans.size());
      f.hits.spans.push_back({s.start, static_cast<std::uint32_t>(std::min<std::size_t>(s.end, le))});
      f.hits.hits.push_back({line_no, static_cast<std::uint32_t>(ls), static_cast<std::uint32_t>(le), begin, 1, true, symbols[k]});
    }
  }

  const View& view_;
  const KindPack& kinds_;
  const GrepOptions& o_;
  const Matcher& m_;
  std::vector<SymbolQuery> qs_;  // --ref or --defines, in the order given; empty for a pattern search
  std::vector<std::string> symbol_texts_ = texts(qs_);
  // The base's index, for a --ref search that lists lines (GrepOptions::known),
  // and the paths of the definitions it knows to refer to a symbol asked for.
  const KnownDefinitions* known_;
  std::unordered_set<std::string> known_referrers_;

  // -L and --files report on every file, so they read each one.
  static const KnownDefinitions* known_for(const GrepOptions& o) {
    if (o.ref.empty() || o.mode == GrepMode::files_without_match || o.mode == GrepMode::list) return nullptr;
    return o.known;
  }

  static std::vector<std::string> texts(const std::vector<SymbolQuery>& qs) {
    std::vector<std::string> out;
    for (const auto& q : qs) out.push_back(q.text);
    return out;
  }
};

}  // namespace


namespace {

// The request itself, before any file: known kinds that may be read, one of
// --ref and --defines, symbols that parse, something to search for, and a
// text output for --files. Returns the symbols, in the order given.
Result<std::vector<SymbolQuery>> check_request(const KindPack& kinds, const GrepOptions& o) {
  for (const auto& k : o.kinds) {
    const Kind* kind = kinds.by_name(k);
    if (!kind) {
      std::string known;
      for (const auto& kd : kinds.kinds()) known += (known.empty() ? "" : ", ") + kd.name;
      return make_error(Errc::usage, "unknown kind '" + k + "'; known kinds: " + known, k);
    }
    if (kind->never_read)
      return make_error(Errc::usage, "kind '" + k + "' is never searched: its content is never opened", k,
                        Rule::secret);
  }
  if (!o.ref.empty() && !o.defines.empty())
    return make_error(Errc::usage, "--ref and --defines are exclusive: pick one");
  if (o.mode == GrepMode::list && o.json)
    return make_error(Errc::usage, "--files lists paths as text only: drop --json, or use 'ws-ls --json'");
  std::vector<SymbolQuery> queries;
  for (const auto& symbol : o.ref.empty() ? o.defines : o.ref) {
    auto q = parse_symbol(kinds, symbol);
    if (!q) return q.error();
    if (!o.defines.empty() && q->kind->never_read)
      return make_error(Errc::usage, "secret '" + q->text + "' is never searched: its content is never opened",
                        q->text, Rule::secret);
    queries.push_back(std::move(q).value());
  }
  return queries;
}

// The options as the search applies them.
GrepOptions effective_options(const GrepOptions& options, bool structural) {
  GrepOptions o = options;
  if (structural) o.column = true;  // a reference is a position: line and column
  if (prints_paths_only(o.mode) || o.mode == GrepMode::count) o.before = o.after = 0;
  return o;
}

// Routing and the path policy of every entry. They are pure and cost about
// 1,600 instructions a path, before any file is read: they are computed on
// all cores, in chunks (a shared counter per path would cost more than it
// spreads), and the files are then chosen in order.
struct Routes {
  std::vector<const Kind*> kind;
  std::vector<unsigned char> path_ok;
};

Routes route_all(const std::vector<ViewEntry>& entries, const KindPack& kinds) {
  Routes r{std::vector<const Kind*>(entries.size()), std::vector<unsigned char>(entries.size())};
  constexpr std::size_t kChunk = 1024;
  parallel_for((entries.size() + kChunk - 1) / kChunk, [&](std::size_t c) {
    const PathPolicy policy = read_policy();
    for (std::size_t i = c * kChunk; i < std::min(entries.size(), (c + 1) * kChunk); ++i) {
      r.kind[i] = kinds.route(entries[i].path);
      r.path_ok[i] = !check_path(entries[i].path, policy);
    }
  });
  return r;
}

// What a record calls a file's kind, as ws-ls does: a kind's name,
// "config", "none" for a file that is not a definition (with the
// workspace's configuration to judge it), else "unrouted".
std::string_view kind_label(const GrepOptions& o, const KindPack& kinds, const Kind* kind, std::string_view path) {
  if (kind) return kind->name;
  if (is_workspace_config_path(path)) return "config";
  if (o.config && is_not_definition(kinds, *o.config, path)) return "none";
  return "unrouted";
}

// Whether an entry is asked for: a pathspec names it (each one that does
// is marked in `spec_hit`) and the -g globs select it.
bool asked_for(const GrepOptions& o, const ViewEntry& e, std::vector<bool>& spec_hit) {
  bool matched = o.pathspecs.empty();
  for (std::size_t i = 0; i < o.pathspecs.size(); ++i)
    if (pathspec_matches(o.pathspecs[i], e.path)) matched = spec_hit[i] = true;
  return matched && search_globs_select(o.globs, e.path);
}

// The files to search, in path order, and what is skipped before any file
// is read, in `summary`: secrets, links, refused paths, unmatched pathspecs.
std::vector<Job> choose_files(const View& view, const KindPack& kinds, const GrepOptions& o, GrepSummary& summary) {
  const std::vector<ViewEntry>& entries = view.entries();
  const Routes routes = route_all(entries, kinds);
  std::vector<Job> jobs;
  jobs.reserve(entries.size());
  std::vector<bool> spec_hit(o.pathspecs.size(), false);
  for (std::size_t at = 0; at < entries.size(); ++at) {
    const ViewEntry& e = entries[at];
    if (e.status == ChangeStatus::deleted || !asked_for(o, e, spec_hit)) continue;
    const Kind* kind = routes.kind[at];
    // Secrets are dropped here, before anything could read them: under
    // '.secrets/', another path whose blob id is a secret's, or a file of a
    // kind that is never read.
    if (never_read(view, e, kind)) {
      if (view.holds_secret_bytes(e)) summary.secret_bytes_skipped.push_back(e.path);
      else ++summary.secrets_skipped;
      continue;
    }
    if (is_link_mode(e.mode)) { summary.links_skipped.push_back(e.path); continue; }
    if (auto rej = routes.path_ok[at] ? std::nullopt : check_path(e.path, read_policy())) {
      summary.errors.push_back(make_error(Errc::refused, rej->message(), e.path, to_rule(rej->rule)));
      continue;
    }
    if (!o.kinds.empty() && (!kind || std::find(o.kinds.begin(), o.kinds.end(), kind->name) == o.kinds.end())) continue;
    Job& job = jobs.emplace_back();
    job.entry = &e;
    job.kind = kind;
    job.kind_label = kind_label(o, kinds, kind, e.path);
    if (!o.json && !o.nul && !o.shown_from.folder.empty()) job.shown_path = path_from_prefix(e.path, o.shown_from);
  }
  for (std::size_t i = 0; i < spec_hit.size(); ++i)
    if (!spec_hit[i] && !o.pathspecs[i].arg.empty()) summary.errors.push_back(unmatched_pathspec(o.pathspecs[i]));
  return jobs;
}

// Prints the files in path order, one at a time, and counts them in the
// summary; with --max, formats what the workers left and stops at the cap.
class Emitter {
 public:
  Emitter(const Search& search, const GrepOptions& o, GrepSummary& summary, std::ostream& out)
      : search_(search), o_(o), summary_(summary), out_(out),
        separate_((o.before || o.after) && !o.json &&
                  (o.mode == GrepMode::lines || o.mode == GrepMode::only_matching)) {}

  void emit(Job& job) {
    if (!counted(job) || !job.results) return;
    ++summary_.files_matched;
    summary_.results += job.results;
    if (o_.max && printed_ >= *o_.max) { summary_.omitted += job.results; return; }
    buffer_.clear();
    if (separate_ && any_output_) buffer_ += "--\n";
    const Found& f = *job.found;
    if (f.formatted) {
      buffer_ += f.text;
      printed_ += job.results;
    } else {
      std::size_t room = o_.max ? *o_.max - printed_ : std::numeric_limits<std::size_t>::max();
      std::size_t n = detail::format_file(buffer_, search_.file_of(job, f), f.hits, o_, room);
      printed_ += n;
      summary_.omitted += job.results - n;
    }
    any_output_ = true;
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  }

 private:
  // Notes a file that yields no output of its own; false for those.
  bool counted(const Job& job) {
    switch (job.outcome) {
      case Outcome::binary: summary_.binary_skipped.push_back(job.entry->path); return false;
      case Outcome::link: summary_.links_skipped.push_back(job.entry->path); return false;
      case Outcome::hard_link: summary_.hard_links_skipped.push_back(job.entry->path); return false;
      case Outcome::secret: summary_.secret_bytes_skipped.push_back(job.entry->path); return false;
      case Outcome::error: summary_.errors.push_back(job.found->error); return false;
      case Outcome::not_run: return false;
      case Outcome::searched: break;
    }
    if (o_.mode != GrepMode::list && search_.reads(job.kind)) ++summary_.files_searched;
    if (job.from_index) ++summary_.files_from_index;
    return true;
  }

  const Search& search_;
  const GrepOptions& o_;
  GrepSummary& summary_;
  std::ostream& out_;
  const bool separate_;  // "--" between files, with context
  std::size_t printed_ = 0;
  bool any_output_ = false;
  std::string buffer_;
};

// Searches the jobs on all cores. Output streams in path order while the
// search goes on: whichever worker finds the next file in order done prints
// it, and every file after it that is done too. Memory stays bounded by how
// far threads run ahead. With -q, no file is read once one has a result.
void search_in_order(std::vector<Job>& jobs, const Search& search, const GrepOptions& o, Emitter& emitter) {
  // Without a cap every file's output is final, so workers format it; with
  // one, the printer formats in order and stops where the cap falls.
  const bool format_now = !o.max;
  std::vector<std::atomic<bool>> done(jobs.size());
  std::atomic<bool> stop{false};
  std::mutex print_mu;
  std::size_t next = 0;
  auto drain = [&](bool wait) {
    std::unique_lock lock(print_mu, std::defer_lock);
    if (wait) lock.lock();
    else if (!lock.try_lock()) return;  // the holder prints; a file it missed waits for the next drain
    for (; next < jobs.size() && done[next].load(std::memory_order_acquire); ++next) {
      emitter.emit(jobs[next]);
      jobs[next].found.reset();  // this file's bytes and output are no longer needed
    }
  };
  parallel_for(jobs.size(), [&](std::size_t i) {
    Job& job = jobs[i];
    if (stop.load(std::memory_order_relaxed)) job.outcome = Outcome::not_run;
    else if (search.reads(job.kind)) search.run(job, format_now);
    if (o.stop_at_first && job.results) stop.store(true, std::memory_order_relaxed);
    done[i].store(true, std::memory_order_release);
    drain(false);
  });
  drain(true);
}

// What ends the output: the Grep-Truncated record when capped, and the JSON
// summary record.
void finish(GrepSummary& summary, const GrepOptions& o, std::ostream& out) {
  // Found before the search (by id) and during it (by hash): one list in path order.
  std::sort(summary.secret_bytes_skipped.begin(), summary.secret_bytes_skipped.end());
  if (summary.omitted) {
    std::string rec = detail::truncated_record(summary.omitted, o);
    out.write(rec.data(), static_cast<std::streamsize>(rec.size()));
  }
  if (o.json) {
    std::string rec = detail::summary_record(summary);
    out.write(rec.data(), static_cast<std::streamsize>(rec.size()));
  }
  out.flush();
}

}  // namespace

Result<GrepSummary> grep_view(const View& view, const KindPack& kinds, const GrepOptions& options,
                              std::ostream& out) {
  auto queries = check_request(kinds, options);
  if (!queries) return queries.error();
  auto matcher = Matcher::compile(options);
  if (!matcher) return matcher.error();
  if (!matcher->has_pattern() && queries->empty() && options.mode != GrepMode::list)
    return make_error(Errc::usage, "nothing to search for: give a PATTERN, -e PATTERN, --ref or --defines");
  const GrepOptions o = effective_options(options, !queries->empty());

  GrepSummary summary;
  std::vector<Job> jobs = choose_files(view, kinds, o, summary);
  // Objects are read without libgit2's re-hashing, as git grep reads them:
  // git::ensure_init, run when the repository was opened, turned it off.
  Search search(view, kinds, o, *matcher, std::move(queries).value());
  Emitter emitter(search, o, summary, out);
  search_in_order(jobs, search, o, emitter);
  finish(summary, o, out);
  return summary;
}

std::string DefinitionNames::name(const KindPack& pack, const Kind& kind, std::string_view path,
                                  std::string_view bytes) {
  std::string key = pack.digest();
  key += '\0';
  key += kind.name;
  key += '\0';
  key += path;
  key += '\0';
  key += detail::blob_id_hex(bytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = names_.find(key); it != names_.end()) return it->second;
  }
  // Read outside the lock: another thread may read the same file too, and
  // both find the same name.
  Definition d = read_definition(kind, path, bytes, pack);
  std::string name = d.has_name ? d.name : std::string();
  std::lock_guard<std::mutex> lock(mutex_);
  if (names_.size() >= kMaxEntries) names_.clear();
  names_.emplace(std::move(key), name);
  return name;
}

}  // namespace ws
