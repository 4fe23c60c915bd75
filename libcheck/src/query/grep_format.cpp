// ws-grep output: ripgrep's --no-heading format, byte for byte (colours
// included), and JSON Lines (schemas/output/ws-grep.json, ws(7) JSON OUTPUT).
#include "grep_format.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/json_output.h"
#include "libcheck/terminal_text.h"

namespace ws::detail {

namespace {

// ripgrep's default colours, with its exact escape sequences.
constexpr std::string_view kPathColor = "\x1b[0m\x1b[35m";
constexpr std::string_view kLineColor = "\x1b[0m\x1b[32m";
constexpr std::string_view kColumnColor = "\x1b[0m";
constexpr std::string_view kMatchColor = "\x1b[0m\x1b[1m\x1b[31m";
constexpr std::string_view kReset = "\x1b[0m";

void append_number(std::string& out, std::size_t n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

// Text of the workspace (a path, a line, a match): rg's bytes, or on a
// terminal with its control characters escaped. A line's pieces around
// coloured matches are escaped one by one; a match boundary never splits a
// character RE2 matched, and a stray byte is escaped on its own either way.
void append_text(std::string& out, std::string_view text, const GrepOptions& o) {
  if (o.terminal) append_terminal_safe(out, text, LineBreaks::escape);
  else out += text;
}

std::string_view shown_path(const GrepFile& f) { return f.shown_path.empty() ? f.path : f.shown_path; }

void append_colored(std::string& out, std::string_view text, std::string_view color, const GrepOptions& o) {
  if (o.color) out += color;
  append_text(out, text, o);
  if (o.color) out += kReset;
}

std::size_t nonempty_spans(const FileHits& h, const LineHit& hit) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < hit.span_count; ++i) {
    const MatchSpan& s = h.spans[hit.span_begin + i];
    n += s.end > s.start;
  }
  return n;
}

std::size_t file_count(const FileHits& h, const GrepOptions& o) {
  std::size_t n = 0;
  for (const auto& hit : h.hits)
    if (hit.counted) n += o.count_matches ? nonempty_spans(h, hit) : 1;
  return n;
}

// Units one hit yields: a line, or each match with -o and --json.
std::size_t hit_units(const FileHits& h, const LineHit& hit, const GrepOptions& o) {
  if (!hit.counted) return 0;
  if (o.json) return std::max<std::size_t>(1, nonempty_spans(h, hit));
  // -v -o prints the selected lines whole, as rg does.
  if (o.mode == GrepMode::only_matching && hit.span_count) return nonempty_spans(h, hit);
  return 1;
}

void dump(std::string& out, const nlohmann::ordered_json& j) {
  out += json_text(j);
  out += '\n';
}

nlohmann::ordered_json nullable(std::string_view s) {
  return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(std::string(s));
}

class Printer {
 public:
  Printer(std::string& out, const GrepFile& f, const FileHits& h, const GrepOptions& o)
      : out_(out), f_(f), h_(h), o_(o) {}

  void context(std::uint32_t line, std::size_t start, std::size_t end) {
    std::string_view text = f_.bytes.substr(start, end - start);
    if (o_.json) {
      nlohmann::ordered_json j = json_record("context");
      j["path"] = std::string(f_.path);
      j["line"] = line;
      j["text"] = std::string(text);
      dump(out_, j);
      return;
    }
    prefix(line, 0, '-');
    append_text(out_, text, o_);
    out_ += '\n';
  }

  void separator() {
    if (!o_.json) out_ += "--\n";
  }

  // Writes `hit`, at most `room` units of it; returns the units written.
  std::size_t hit(const LineHit& hit, std::size_t room) {
    std::string_view line = f_.bytes.substr(hit.start, hit.end - hit.start);
    if (o_.json) return json_hit(hit, line, room);
    const MatchSpan* spans = h_.spans.data() + hit.span_begin;
    if (o_.mode == GrepMode::only_matching && hit.span_count) {
      std::size_t n = 0;
      for (std::uint32_t i = 0; i < hit.span_count && (n < room || !hit.counted); ++i) {
        if (spans[i].end <= spans[i].start) continue;  // an empty match shows nothing
        prefix(hit.line, o_.column ? spans[i].start - hit.start + 1 : 0, ':');
        append_colored(out_, f_.bytes.substr(spans[i].start, spans[i].end - spans[i].start), kMatchColor, o_);
        out_ += '\n';
        n += hit.counted;
      }
      return n;
    }
    std::size_t col = o_.column && hit.span_count ? spans[0].start - hit.start + 1 : 0;
    prefix(hit.line, col, ':');
    if (!o_.color) {
      append_text(out_, line, o_);
    } else {
      std::size_t at = hit.start;
      for (std::uint32_t i = 0; i < hit.span_count; ++i) {
        if (spans[i].end <= spans[i].start) continue;
        append_text(out_, f_.bytes.substr(at, spans[i].start - at), o_);
        append_colored(out_, f_.bytes.substr(spans[i].start, spans[i].end - spans[i].start), kMatchColor, o_);
        at = spans[i].end;
      }
      append_text(out_, f_.bytes.substr(at, hit.end - at), o_);
    }
    out_ += '\n';
    return hit.counted ? 1 : 0;
  }

 private:
  void prefix(std::uint32_t line, std::size_t column, char sep) {
    if (o_.filename) {
      append_colored(out_, shown_path(f_), kPathColor, o_);
      out_ += o_.nul ? '\0' : sep;
    }
    if (o_.line_number) {
      if (o_.color) out_ += kLineColor;
      append_number(out_, line);
      if (o_.color) out_ += kReset;
      out_ += sep;
    }
    if (column) {
      if (o_.color) out_ += kColumnColor;
      append_number(out_, column);
      if (o_.color) out_ += kReset;
      out_ += sep;
    }
  }

  nlohmann::ordered_json record(const LineHit& hit, std::string_view line) {
    nlohmann::ordered_json j = json_record("match");
    j["path"] = std::string(f_.path);
    j["kind"] = std::string(f_.kind);
    j["name"] = nullable(f_.name);
    if (f_.symbols) j["symbol"] = f_.symbols->at(hit.symbol);
    j["line"] = hit.line;
    j["column"] = 1;
    j["start"] = hit.start;
    j["end"] = hit.end;
    j["text"] = std::string(line);
    j["match"] = nullptr;
    return j;
  }

  std::size_t json_hit(const LineHit& hit, std::string_view line, std::size_t room) {
    if (!hit.counted) {  // past -m: shown as context, as it is not a result
      context(hit.line, hit.start, hit.end);
      return 0;
    }
    nlohmann::ordered_json j = record(hit, line);
    std::size_t n = 0;
    for (std::uint32_t i = 0; i < hit.span_count && n < room; ++i) {
      const MatchSpan& s = h_.spans[hit.span_begin + i];
      if (s.end <= s.start) continue;
      j["column"] = s.start - hit.start + 1;
      j["start"] = s.start;
      j["end"] = s.end;
      j["match"] = std::string(f_.bytes.substr(s.start, s.end - s.start));
      dump(out_, j);
      ++n;
    }
    if (n == 0 && room) {  // -v lines, and lines selected by empty matches only
      dump(out_, j);
      n = 1;
    }
    return n;
  }

  std::string& out_;
  const GrepFile& f_;
  const FileHits& h_;
  const GrepOptions& o_;
};

// Start of the line before the one starting at `start` (> 0).
std::size_t previous_line_start(std::string_view t, std::size_t start) {
  std::size_t nl = start - 1;  // the previous line's '\n'
  const void* p = nl ? memrchr(t.data(), '\n', nl) : nullptr;
  return p ? static_cast<std::size_t>(static_cast<const char*>(p) - t.data()) + 1 : 0;
}

std::size_t line_end(std::string_view t, std::size_t pos) {
  const void* nl = std::memchr(t.data() + pos, '\n', t.size() - pos);
  return nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - t.data()) : t.size();
}

// The one line a file gets with -l, -L, -c or --files (a "file" record in
// JSON), when it has a result; returns the results written.
std::size_t format_file_line(std::string& out, const GrepFile& f, const FileHits& h, const GrepOptions& o) {
  if (!result_count(h, o)) return 0;
  std::size_t n = o.mode == GrepMode::count || o.mode == GrepMode::files ? file_count(h, o) : 0;
  if (o.json) {
    nlohmann::ordered_json j = json_record("file");
    j["path"] = std::string(f.path);
    j["kind"] = std::string(f.kind);
    j["name"] = nullable(f.name);
    j["count"] = n;
    dump(out, j);
    return 1;
  }
  if (prints_paths_only(o.mode)) {
    append_colored(out, shown_path(f), kPathColor, o);
    out += o.nul ? '\0' : '\n';
    return 1;
  }
  // -c: "path:count", or the count alone with -I, as rg.
  if (o.filename) {
    append_colored(out, shown_path(f), kPathColor, o);
    out += o.nul ? '\0' : ':';
  }
  append_number(out, n);
  out += '\n';
  return 1;
}

}  // namespace

std::size_t result_count(const FileHits& h, const GrepOptions& o) {
  if (o.mode == GrepMode::list) return 1;
  if (o.mode == GrepMode::files) return h.counted() ? 1 : 0;
  if (o.mode == GrepMode::files_without_match) return h.counted() ? 0 : 1;
  if (o.mode == GrepMode::count) return file_count(h, o) ? 1 : 0;
  std::size_t n = 0;
  for (const auto& hit : h.hits) n += hit_units(h, hit, o);
  return n;
}

std::size_t format_file(std::string& out, const GrepFile& f, const FileHits& h, const GrepOptions& o,
                        std::size_t limit) {
  if (limit == 0) return 0;
  if (prints_paths_only(o.mode) || o.mode == GrepMode::count) return format_file_line(out, f, h, o);

  Printer p(out, f, h, o);
  const std::string_view t = f.bytes;
  const bool with_context = o.before || o.after;
  std::uint32_t last = 0;        // last line printed (0: none yet)
  std::size_t next_start = 0;    // where the line after `last` starts
  std::uint32_t after_until = 0;  // trailing context runs to this line
  std::size_t written = 0;
  bool capped = false;

  auto flush_after = [&](std::uint32_t upto) {
    while (last < upto && next_start < t.size()) {
      std::size_t end = line_end(t, next_start);
      p.context(++last, next_start, end);
      next_start = end + 1;
    }
  };

  for (const LineHit& hit : h.hits) {
    if (written >= limit) { capped = true; break; }
    if (last) flush_after(std::min<std::uint32_t>(after_until, hit.line - 1));
    if (hit.line > last) {
      std::uint32_t from = hit.line > o.before ? hit.line - static_cast<std::uint32_t>(o.before) : 1;
      from = std::max(from, last + 1);
      if (with_context && last && from > last + 1) p.separator();
      std::vector<std::size_t> starts;  // of lines from..hit.line-1, nearest first
      for (std::size_t s = hit.start, k = hit.line; k > from; --k) starts.push_back(s = previous_line_start(t, s));
      for (std::size_t i = starts.size(); i-- > 0;) {
        std::size_t s = starts[i];
        p.context(hit.line - static_cast<std::uint32_t>(i) - 1, s, line_end(t, s));
      }
    }
    written += p.hit(hit, limit - written);
    last = hit.line;
    next_start = static_cast<std::size_t>(hit.end) + 1;
    if (hit.counted) after_until = std::max(after_until, hit.line + static_cast<std::uint32_t>(o.after));
  }
  if (!capped && last) flush_after(after_until);
  return written;
}

std::string truncated_record(std::size_t omitted, const GrepOptions& o) {
  if (o.json) {
    std::string out;
    nlohmann::ordered_json j = json_record("Grep-Truncated");
    j["omitted"] = omitted;
    j["max"] = o.max.value_or(0);
    dump(out, j);
    return out;
  }
  std::string out = "Grep-Truncated: ";
  append_number(out, omitted);
  out += omitted == 1 ? " more result (raise --max)" : " more results (raise --max)";
  out += o.nul && prints_paths_only(o.mode) ? '\0' : '\n';
  return out;
}

std::string summary_record(const GrepSummary& s) {
  std::string out;
  nlohmann::ordered_json j = json_record("summary");
  j["files_searched"] = s.files_searched;
  j["files_matched"] = s.files_matched;
  j["results"] = s.results;
  j["omitted"] = s.omitted;
  j["binary_skipped"] = s.binary_skipped.size();
  j["links_skipped"] = s.links_skipped.size() + s.hard_links_skipped.size();
  j["errors"] = s.errors.size();
  dump(out, j);
  return out;
}

}  // namespace ws::detail
