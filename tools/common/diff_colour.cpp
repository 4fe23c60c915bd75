#include "common/diff_colour.h"

#include "libcheck/sgr.h"
#include "libcheck/terminal_text.h"

namespace wscli {

namespace {

// git's color.diff defaults (libcheck/sgr.h).
constexpr std::string_view kReset = ws::sgr::reset_short;
constexpr std::string_view kMeta = ws::sgr::bold;
constexpr std::string_view kFrag = ws::sgr::cyan;
constexpr std::string_view kOld = ws::sgr::red;
constexpr std::string_view kNew = ws::sgr::green;
constexpr std::string_view kCommit = ws::sgr::yellow;
constexpr std::string_view kWhitespace = ws::sgr::on_red;

// Calls `each` with every line of `text`, without its '\n', and writes the
// line breaks between them to `out`: a text with no final newline gets none.
template <class Each>
void for_each_line(std::string_view text, std::string& out, Each each) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    each(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
}

bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

void paint(std::string& out, std::string_view colour, std::string_view text) {
  out += colour;
  out += text;
  out += kReset;
}

// "@@ -1,3 +1,4 @@ func": the range in the frag colour, the function's line
// after it plain.
void hunk_header(std::string& out, std::string_view line) {
  std::size_t close = line.find("@@", 2);
  if (close == std::string_view::npos) return paint(out, kFrag, line);
  paint(out, kFrag, line.substr(0, close + 2));
  std::string_view func = line.substr(close + 2);
  if (func.empty()) return;
  out += func.substr(0, 1);
  out += kReset;
  out += func.substr(1);
  out += kReset;
}

// An added line: the '+' on its own, the text, and blanks at its end on red
// (git's blank-at-eol whitespace error).
void added_line(std::string& out, std::string_view line) {
  paint(out, kNew, "+");
  std::string_view body = line.substr(1);
  std::size_t end = body.find_last_not_of(" \t");
  std::string_view text = end == std::string_view::npos ? std::string_view() : body.substr(0, end + 1);
  if (!text.empty()) paint(out, kNew, text);
  if (text.size() < body.size()) paint(out, kWhitespace, body.substr(text.size()));
}

enum class Part { header, hunk, binary };

// One line of a patch, made terminal-safe, coloured by the part of the
// patch it is in; `part` carries over from line to line.
void patch_line(std::string& out, Part& part, std::string_view line) {
  if (starts(line, "diff --git ")) part = Part::header;
  if (part != Part::binary && starts(line, "@@")) {
    part = Part::hunk;
    hunk_header(out, line);
  } else if (part == Part::header &&
             (starts(line, "GIT binary patch") || starts(line, "Binary files") || starts(line, "# "))) {
    part = Part::binary;  // git writes these plain, and what follows
    out += line;
  } else if (part == Part::header) {
    paint(out, kMeta, line);
  } else if (part == Part::hunk && starts(line, "+")) {
    added_line(out, line);
  } else if (part == Part::hunk && starts(line, "-")) {
    paint(out, kOld, line);
  } else if (part == Part::hunk) {
    out += line;  // context, "\ No newline at end of file"
    out += kReset;
  } else {
    out += line;
  }
}

// One line of a diffstat: " path | 12 +++--", the graph being the run of '+'
// then '-' after the count, in green and red; any other line plain.
void stat_line(std::string& out, std::string_view line) {
  std::size_t bar = line.rfind(" | ");
  std::size_t graph = line.find_last_not_of("+-");
  bool has_graph = bar != std::string_view::npos && graph != std::string_view::npos && graph > bar &&
                   graph + 1 < line.size() && line[graph] == ' ' &&
                   line.find_first_not_of("0123456789", bar + 3) == graph;
  if (!has_graph) {
    out += line;
    return;
  }
  std::string_view marks = line.substr(graph + 1);
  std::size_t minus = marks.find('-');
  out += line.substr(0, graph + 1);
  std::string_view plus = marks.substr(0, minus);
  if (!plus.empty()) paint(out, kNew, plus);
  if (minus != std::string_view::npos) paint(out, kOld, marks.substr(minus));
}

}  // namespace

std::string coloured_patch(std::string_view patch) {
  std::string out;
  out.reserve(patch.size() + patch.size() / 4);
  std::string storage;
  Part part = Part::binary;
  for_each_line(patch, out, [&](std::string_view raw) {
    patch_line(out, part, ws::terminal_safe(raw, storage, ws::LineBreaks::escape));
  });
  return out;
}

std::string coloured_stat(std::string_view stat) {
  std::string out;
  for_each_line(stat, out, [&](std::string_view line) { stat_line(out, line); });
  return out;
}

std::string commit_colour(std::string_view line) {
  std::string out;
  paint(out, kCommit, line);
  return out;
}

}  // namespace wscli
