// The code each fuzz target runs on one input, shared by the libFuzzer targets
// (tests/fuzz/fuzz_*.cpp, built only with -DWS_FUZZ=ON) and by the regression
// test every build runs (tests/unit/fuzz_regressions_test.cpp), so a crash or
// a broken invariant found once is replayed by the same code forever.
//
// Each entry returns "" when every invariant held, else one line saying which
// broke. A crash is a crash in both places; the sanitizer build turns memory
// errors into crashes.
#pragma once

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/repository.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "git_util.h"
#include "index_file.h"
#include "libcheck/kinds.h"
#include "libcheck/path_policy.h"
#include "libcheck/pathspec.h"
#include "libcheck/reader.h"
#include "libcheck/render.h"
#include "proposal_canonical.h"
#include "proposal_internal.h"

#ifndef WS_SOURCE_DIR
#error "WS_SOURCE_DIR must name the project's source directory (for the default kind pack)"
#endif

namespace wsfuzz {

// ---------------------------------------------------------------- helpers

inline std::string printable(std::string_view s, std::size_t max = 80) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && out.size() < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7f || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

inline bool has_control_byte(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char ch) {
    unsigned char c = static_cast<unsigned char>(ch);
    return c < 0x20 || c == 0x7f;
  });
}

inline char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

inline std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = s.find(sep, start);
    if (end == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
}

// The default kind pack, loaded once per process.
inline const ws::KindPack& default_pack() {
  static const ws::KindPack pack = [] {
    auto loaded = ws::KindPack::load(std::string(WS_SOURCE_DIR) + "/schemas/kinds");
    if (!loaded) {
      std::fprintf(stderr, "fuzz: cannot load the default kind pack: %s\n", loaded.error().message.c_str());
      std::abort();
    }
    return std::move(loaded).value();
  }();
  return pack;
}

// The default manifests as texts (file name -> bytes), for KindPack::from_texts.
inline const std::map<std::string, std::string>& default_manifest_texts() {
  static const std::map<std::string, std::string> texts = [] {
    std::map<std::string, std::string> out;
    for (const ws::Kind& k : default_pack().kinds()) {
      std::FILE* f = std::fopen(k.source.c_str(), "rb");
      if (!f) {
        std::fprintf(stderr, "fuzz: cannot read %s\n", k.source.c_str());
        std::abort();
      }
      std::string bytes;
      char buf[4096];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, n);
      std::fclose(f);
      out[k.source.substr(k.source.rfind('/') + 1)] = bytes;
    }
    return out;
  }();
  return texts;
}

// The invariants every accepted path must satisfy, checked the obvious way,
// independently of path_policy.cpp's own code. "" when they hold.
inline std::string accepted_path_problem(std::string_view p) {
  if (p.empty()) return "accepted an empty path";
  if (p.front() == '/') return "accepted an absolute path";
  if (p.find('\\') != std::string_view::npos) return "accepted a backslash";
  if (has_control_byte(p)) return "accepted a control byte";
  if (p.size() > 4096) return "accepted a path over 4096 bytes";
  if (p.size() >= 2 && p[1] == ':' && ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z')))
    return "accepted a drive prefix";
  for (std::string_view c : split(p, '/')) {
    if (c.empty() || c == "." || c == "..") return "accepted an empty, '.' or '..' component";
    if (c.size() > 255) return "accepted a component over 255 bytes";
    std::string l = lowered(c);
    while (!l.empty() && (l.back() == '.' || l.back() == ' ')) l.pop_back();
    if (l == ".git" || l == "git~1") return "accepted a .git component";
    if (l.rfind(".git:", 0) == 0 || l.rfind("git~1:", 0) == 0) return "accepted a .git stream";
  }
  return {};
}

// True when `p` names content under .secrets/ in any spelling the policy
// treats alike (ws(7), PATH POLICY), the obvious way: the first component
// without HFS+'s ignorable code points, lower-cased, cut at a ':' or '\\'
// (an NTFS stream or separator: then the component is content itself), and
// without trailing dots and spaces, is '.secrets' or an 8.3 short name of it
// ('secret~N', 'seHHHH~N').
inline bool under_secrets(std::string_view p) {
  auto slash = p.find('/');
  std::string first(p.substr(0, slash));
  for (const char* ignorable : {"\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d",
                                "\u202e", "\u206a", "\u206b", "\u206c", "\u206d", "\u206e", "\u206f", "\ufeff"})
    for (auto at = first.find(ignorable); at != std::string::npos; at = first.find(ignorable))
      first.erase(at, std::string_view(ignorable).size());
  first = lowered(first);
  auto cut = first.find_first_of(":\\");
  bool stream = cut != std::string::npos;
  if (stream) first.resize(cut);
  while (!first.empty() && (first.back() == '.' || first.back() == ' ')) first.pop_back();
  auto short_name = [](const std::string& n, std::size_t prefix) {
    if (n.size() < prefix + 2 || n[prefix] != '~' || n[prefix + 1] < '1' || n[prefix + 1] > '9') return false;
    return std::all_of(n.begin() + static_cast<std::ptrdiff_t>(prefix) + 2, n.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  bool names = first == ".secrets" || (first.rfind("secret", 0) == 0 && short_name(first, 6)) ||
               (first.size() > 6 && first.rfind("se", 0) == 0 && std::all_of(first.begin() + 2, first.begin() + 6, hex) &&
                short_name(first, 6));
  if (!names) return false;
  return stream || (slash != std::string_view::npos && slash + 1 < p.size());
}

inline std::string span_problem(const ws::Span& s, std::size_t size, std::string_view bytes, const char* what) {
  if (s.start_byte > s.end_byte || s.end_byte > size)
    return std::string(what) + " span [" + std::to_string(s.start_byte) + "," + std::to_string(s.end_byte) +
           ") outside the " + std::to_string(size) + " bytes";
  if (s.start.line < 1 || s.start.column < 1 || s.end.line < 1 || s.end.column < 1)
    return std::string(what) + " span with a zero line or column";
  ws::Position at = ws::position_at(bytes, s.start_byte);
  if (!(at == s.start))
    return std::string(what) + " span starts at byte " + std::to_string(s.start_byte) + " = " +
           std::to_string(at.line) + ":" + std::to_string(at.column) + " but says " + std::to_string(s.start.line) +
           ":" + std::to_string(s.start.column);
  return {};
}

// ---------------------------------------------------------------- readers

// Input: one byte choosing the kind among the format's kinds of the default
// pack (its low six bits) and whether to render the machine formats too (bit
// 6: they cost ten times the rest, so only some inputs pay for them), then
// the file's bytes. Reads the definition, classifies the syntax, and renders
// the diagnostics: human always, JSON, SARIF, GitHub and GitLab on request.
inline std::string reader(ws::Format format, std::string_view data) {
  if (data.empty()) return {};
  const ws::KindPack& pack = default_pack();
  std::vector<const ws::Kind*> kinds;
  for (const ws::Kind& k : pack.kinds())
    if (k.format == format) kinds.push_back(&k);
  if (kinds.empty()) return "the default pack has no kind of this format";
  const unsigned char selector = static_cast<unsigned char>(data[0]);
  const ws::Kind& kind = *kinds[(selector & 0x3f) % kinds.size()];
  const bool machine_formats = (selector & 0x40) != 0;
  std::string_view bytes = data.substr(1);
  std::string path = kind.dir + "Fz01" + kind.extension;

  ws::Definition d = ws::read_definition(kind, path, bytes, pack);
  if (d.path != path) return "definition path '" + printable(d.path) + "' is not the file's";
  if (d.kind != kind.name) return "definition kind '" + d.kind + "' is not " + kind.name;
  if (d.has_name && !kind.symbol_root.empty() && !d.name.empty() && !ws::is_valid_symbol_name(d.name))
    return "accepted the invalid name '" + printable(d.name) + "'";
  if (d.has_name && !d.name.empty())
    if (auto p = span_problem(d.name_span, bytes.size(), bytes, "name"); !p.empty()) return p;
  for (const auto& r : d.refs)
    if (auto p = span_problem(r.span, bytes.size(), bytes, "reference"); !p.empty()) return p;
  for (const auto& m : d.members)
    if (auto p = span_problem(m.span, bytes.size(), bytes, "member"); !p.empty()) return p;
  for (const auto& diag : d.diagnostics) {
    if (diag.path != path) return "a diagnostic names another path: '" + printable(diag.path) + "'";
    if (diag.message.empty()) return "a diagnostic without a message";
    if (has_control_byte(diag.message))
      return std::string(ws::diag_info(diag.code).id) + " message holds a control byte: " + printable(diag.message);
    if (diag.has_span)
      if (auto p = span_problem(diag.span, bytes.size(), bytes, ws::diag_info(diag.code).id); !p.empty()) return p;
  }
  std::vector<ws::Diagnostic> encoding;
  if (!ws::check_encoding(path, bytes, encoding) &&
      std::none_of(d.diagnostics.begin(), d.diagnostics.end(),
                   [](const ws::Diagnostic& x) { return x.code == ws::DiagCode::bad_encoding; }))
    return "bytes that are not UTF-8 (or hold NUL) read without a WS002";

  std::uint32_t last_end = 0;
  for (const auto& r : ws::classify_syntax(format, bytes)) {
    if (r.start_byte < last_end || r.start_byte > r.end_byte || r.end_byte > bytes.size())
      return "syntax classes unsorted, overlapping or out of bounds at byte " + std::to_string(r.start_byte);
    last_end = r.end_byte;
  }

  // Every renderer, quoting the source: spans, carets and UTF-16 columns
  // computed on hostile bytes. JSON documents must parse back.
  std::vector<ws::Diagnostic> diags = d.diagnostics;
  std::sort(diags.begin(), diags.end(), ws::diag_less);
  ws::BuildSummary summary = ws::tally(diags, ws::BuildSummary{1, 1});
  for (ws::OutputFormat f : {ws::OutputFormat::human, ws::OutputFormat::json, ws::OutputFormat::sarif,
                             ws::OutputFormat::github, ws::OutputFormat::gitlab}) {
    if (f != ws::OutputFormat::human && !machine_formats) continue;
    std::ostringstream out;
    ws::RenderOptions ro;
    ro.tool_version = "0.0.0-fuzz";
    std::string source(bytes);
    ro.source = [&](const std::string& p) -> std::optional<std::string> {
      if (p == path) return source;
      return std::nullopt;
    };
    auto consumer = ws::make_consumer(f, out, ro);
    ws::render_all(*consumer, diags, summary);
    std::string text = out.str();
    if (text.find('\x1b') != std::string::npos)
      return std::string(ws::output_format_name(f)) + " output holds an ESC byte without colour";
    if (f == ws::OutputFormat::sarif || f == ws::OutputFormat::gitlab) {
      if (!nlohmann::json::accept(text))
        return std::string(ws::output_format_name(f)) + " output is not valid JSON";
    }
    // JSON Lines (ws(7), JSON OUTPUT): each line one record, the summary last.
    if (f == ws::OutputFormat::json) {
      if (text.empty() || text.back() != '\n') return "json output does not end its last record with a newline";
      std::size_t start = 0, records = 0;
      std::string last_type;
      while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        auto record = nlohmann::json::parse(text.substr(start, end - start), nullptr, /*allow_exceptions=*/false);
        if (!record.is_object() || !record.contains("type")) return "json output holds a line that is no record";
        last_type = record["type"].is_string() ? record["type"].get<std::string>() : "";
        ++records;
        start = end + 1;
      }
      if (last_type != "summary" || records != diags.size() + 1)
        return "json output is not one record per diagnostic, then the summary";
    }
  }
  return {};
}

// ---------------------------------------------------------------- path policy

// Input: the path, whole. Checked under every policy.
inline std::string path_policy(std::string_view p) {
  struct Named {
    const char* name;
    ws::PathPolicy policy;
    bool secrets_refused;
    bool protects;
  };
  ws::PathPolicy names_ok;
  names_ok.allow_secret_names = true;
  const std::vector<Named> policies{
      {"read", ws::read_policy(), true, false},
      {"write", ws::write_policy(), true, true},
      {"proposal", ws::proposal_policy(), true, true},
      {"proposal+protected", ws::proposal_policy({"Prot/", ".ws/config.json"}), true, true},
      {"secret-names", names_ok, false, false},
  };
  std::optional<ws::PathRule> policy_free_rule;
  bool some_accepted = false;
  for (const Named& n : policies) {
    auto rej = ws::check_path(p, n.policy);
    if (!rej) {
      some_accepted = true;
      if (auto problem = accepted_path_problem(p); !problem.empty())
        return std::string(n.name) + " policy " + problem + ": '" + printable(p) + "'";
      if (n.secrets_refused && under_secrets(p))
        return std::string(n.name) + " policy accepted secret content: '" + printable(p) + "'";
      if (n.protects) {
        std::string l = lowered(p);
        if (l.rfind(".git/", 0) == 0 || l.rfind(".secrets/", 0) == 0 || l == ".secrets")
          return std::string(n.name) + " policy accepted a protected path: '" + printable(p) + "'";
      }
      if (std::string_view(n.name) == "proposal+protected") {
        std::string l = lowered(p);
        if (l.rfind("prot/", 0) == 0 || l == "prot" || l == ".ws/config.json")
          return "proposal policy accepted a workspace-protected path: '" + printable(p) + "'";
      }
    } else {
      if (rej->path != p) return "a rejection names another path";
      std::string msg = rej->message();
      if (has_control_byte(msg)) return "a rejection message holds a control byte: " + printable(msg);
      if (msg.find(ws::path_rule_name(rej->rule)) == std::string::npos)
        return "a rejection message does not name its rule: " + printable(msg);
      // Rules before 'secret' do not depend on the policy: every policy
      // refuses such a path for the same reason.
      bool policy_free = rej->rule != ws::PathRule::secret && rej->rule != ws::PathRule::protected_path &&
                         rej->rule != ws::PathRule::too_long;
      if (policy_free) {
        if (policy_free_rule && *policy_free_rule != rej->rule) return "policies disagree on a policy-free rule";
        policy_free_rule = rej->rule;
      }
    }
  }
  if (policy_free_rule && some_accepted)
    return std::string("one policy accepted what another refused as ") + ws::path_rule_name(*policy_free_rule) +
           ": '" + printable(p) + "'";
  // Every component check agrees with is_git_dir_component on the plain spellings.
  for (std::string_view c : split(p, '/'))
    if (lowered(c) == ".git" && !ws::is_git_dir_component(c)) return "is_git_dir_component missed '.git'";
  return {};
}

// ---------------------------------------------------------------- kind manifests

// Input: a manifest of the workspace's .ws/kinds, over the default pack.
inline std::string kind_manifest(std::string_view data) {
  auto pack = ws::KindPack::from_texts(default_manifest_texts(), {{"fuzz.json", std::string(data)}});
  if (!pack) {
    if (pack.error().message.empty()) return "a refusal without a message";
    if (pack.error().message.find('\n') != std::string::npos) return "a refusal message of several lines";
    return {};
  }
  for (const ws::Kind& k : pack->kinds()) {
    if (k.dir.empty() || k.dir.back() != '/') return "kind '" + k.name + "' has a folder without a trailing '/'";
    if (!accepted_path_problem(k.dir.substr(0, k.dir.size() - 1)).empty())
      return "kind '" + k.name + "' has the folder '" + printable(k.dir) + "' the path policy refuses";
    if (k.format == ws::Format::opaque && !k.never_read) return "an opaque kind that may be read";
    // What a workspace manifest may never do (ws(7), SECRETS).
    if (k.source == "fuzz.json" &&
        (k.name == "secret" || under_secrets(k.dir + "x") || lowered(k.symbol_root) == "secrets"))
      return "a workspace kind '" + printable(k.name) + "' that reaches for the secrets";
  }
  for (const char* secret : {".secrets/Key", ".SECRETS/Key", ".secrets./Key"})
    if (pack->route(secret) != pack->by_name("secret")) return "a secret routed to another kind";
  // Route a few paths, and read a definition through the fuzzed kind: its
  // schema and pointers are hostile too.
  for (const char* probe : {"agents/AGtriage01.json", "x/y.json", ".secrets/Key", "a/b/c.md", "endpoints/E.cs"}) {
    const ws::Kind* k = pack->route(probe);
    if (k && std::string_view(probe).rfind(k->dir, 0) != 0) return "routed a path outside its kind's folder";
  }
  std::string name;
  try {
    auto m = nlohmann::json::parse(data);
    if (m.is_object() && m.contains("kind") && m["kind"].is_string()) name = m["kind"].get<std::string>();
  } catch (const std::exception&) {
    return "the pack accepted a manifest that is not JSON";
  }
  const ws::Kind* kind = pack->by_name(name);
  if (!kind) return "the overlay kind '" + printable(name) + "' is missing from the pack";
  if (kind->never_read) return {};
  static const char* samples[] = {
      "{\n  \"name\": \"Triage\",\n  \"tools\": [\"Lookup\", 3],\n  \"fields\": [{\"name\": \"Status\", \"type\": "
      "\"string\"}],\n  \"node\": \"Ticket\"\n}\n",
      "// name: Lookup\n// route: /x\n// method: GET\nreturn Agents.Triage.Run(N.Ticket.Status);\n",
      "---\nname: Tone\nincludes: [Base, 3]\ndescription: x\n---\nBody\n",
  };
  for (const char* sample : samples) {
    std::string path = kind->dir + "Fz01" + kind->extension;
    std::string_view bytes(sample);
    ws::Definition d = ws::read_definition(*kind, path, bytes, *pack);
    for (const auto& diag : d.diagnostics)
      if (diag.has_span)
        if (auto p = span_problem(diag.span, bytes.size(), bytes, ws::diag_info(diag.code).id); !p.empty()) return p;
  }
  return {};
}

// ---------------------------------------------------------------- pathspecs

// Whether `arg`, taken from the root, names the root itself: its
// components, '.' and empty ones dropped, each '..' taking back one before
// it, come to nothing (":/" first only says "from the root").
inline bool names_the_root(std::string_view arg) {
  if (arg.substr(0, 2) == ":/") arg.remove_prefix(2);
  if (arg.empty()) return true;
  long depth = 0;
  for (std::string_view c : split(arg, '/')) {
    if (c.empty() || c == ".") continue;
    depth += c == ".." ? -1 : 1;
    if (depth < 0) return false;
  }
  return depth == 0;
}

// Input: the pathspec on the first line, then one path per line.
inline std::string pathspec(std::string_view data) {
  auto lines = split(data, '\n');
  std::string_view arg = lines.front();
  auto spec = ws::parse_pathspec(arg);
  if (!spec) {
    if (spec.error().code != ws::Errc::usage) return "a refused pathspec that is not a usage error";
    if (has_control_byte(spec.error().message)) return "a pathspec refusal holds a control byte";
    return {};
  }
  const ws::Pathspec& s = *spec;
  if (s.text.empty()) {
    if (!names_the_root(arg)) return "an empty pathspec from '" + printable(arg) + "'";
  } else {
    if (s.text.size() > 1 && s.text.back() == '/') return "a pathspec with a trailing '/'";
    if (auto problem = accepted_path_problem(s.text); !problem.empty())
      return "pathspec " + problem + ": '" + printable(s.text) + "'";
    if (under_secrets(s.text)) return "a pathspec naming secret content: '" + printable(s.text) + "'";
    if (s.glob != (s.text.find_first_of("*?[") != std::string::npos)) return "glob flag disagrees with the text";
  }
  // From a subfolder (one whose name is a glob): what is accepted is a
  // path the policy accepts, and the folder's own bytes are never a glob.
  if (auto sub = ws::parse_pathspec(arg, ws::PathPrefix{"d[1]/"}); sub && !sub->text.empty()) {
    if (auto problem = accepted_path_problem(sub->text); !problem.empty())
      return "pathspec from a subfolder " + problem + ": '" + printable(sub->text) + "'";
    if (sub->literal > sub->text.size()) return "a literal part longer than the pathspec";
    if (sub->glob && sub->text.find_first_of("*?[", sub->literal) == std::string::npos)
      return "a glob whose only glob characters are the folder's";
  }
  std::vector<ws::Pathspec> specs{s};
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::string_view path = lines[i];
    bool m = ws::pathspec_matches(s, path);
    if (m != ws::any_pathspec_matches(specs, path)) return "any_pathspec_matches disagrees with pathspec_matches";
    if (s.text.empty()) {
      if (!m) return "'.' did not match '" + printable(path) + "'";
    } else if (!s.glob) {
      bool expect = path == s.text || (path.size() > s.text.size() && path.substr(0, s.text.size()) == s.text &&
                                       path[s.text.size()] == '/');
      if (m != expect) return "plain pathspec '" + printable(s.text) + "' wrongly matched '" + printable(path) + "'";
    }
  }
  return {};
}

// ---------------------------------------------------------------- proposal trees

// Input: records separated by '\n'. Each record is a mode selector byte then
// an entry name (raw bytes, up to a NUL). Two checks:
//  1. refuse_entry on (name as a path, mode): an accepted entry is a plain
//     file at a path the policy allows;
//  2. a raw git tree holding those entries (names unchecked, unsorted,
//     duplicated: what a hostile proposal commit can carry) is written to an
//     in-memory object database and checked against a base tree as ws-apply
//     checks it (check_proposal): when it passes, the entries must be in
//     git's order, unique, of canonical modes and names, and every change
//     refuse_entry accepts must satisfy the same invariants.
struct ModeChoice {
  const char* text;      // as written in the tree object
  std::uint32_t value;   // as refuse_entry sees it
};
inline constexpr ModeChoice kModes[] = {
    {"100644", 0100644}, {"100755", 0100755}, {"120000", 0120000}, {"160000", 0160000},
    {"40000", 0040000},  {"100664", 0100664}, {"644", 0644},       {"040000", 0040000},
};

inline std::string change_problem(std::string_view path, std::uint32_t mode, const std::vector<std::string>& prot) {
  auto why = ws::proposal::refuse_entry(path, mode, prot);
  if (why) {
    if (has_control_byte(*why)) return "a refusal holds a control byte: " + printable(*why);
    return {};
  }
  if (mode != 0100644 && mode != 0100755)
    return "accepted mode " + std::to_string(mode) + " at '" + printable(path) + "'";
  if (auto problem = accepted_path_problem(path); !problem.empty())
    return "proposal " + problem + ": '" + printable(path) + "'";
  std::string l = lowered(path);
  if (under_secrets(path) || l == ".secrets" || l.rfind(".secrets/", 0) == 0)
    return "proposal accepted a change under .secrets/: '" + printable(path) + "'";
  for (const auto& pre : prot) {
    std::string lp = lowered(pre);
    bool hit = lp.back() == '/' ? l.rfind(lp, 0) == 0 || l + "/" == lp : l == lp;
    if (hit) return "proposal accepted the protected path '" + printable(path) + "'";
  }
  return {};
}

struct MemRepo {
  git_repository* repo = nullptr;
  git_odb* odb = nullptr;
  git_odb_backend* mempack = nullptr;
  MemRepo() {
    ws::git::ensure_init();
    if (git_repository_new(&repo) < 0 || git_odb_new(&odb) < 0 || git_mempack_new(&mempack) < 0 ||
        git_odb_add_backend(odb, mempack, 1) < 0) {
      std::fprintf(stderr, "fuzz: cannot make an in-memory repository: %s\n", ws::git::last_error().c_str());
      std::abort();
    }
    git_repository_set_odb(repo, odb);
  }
  ~MemRepo() {
    git_odb_free(odb);
    git_repository_free(repo);
  }
};

inline std::string raw_entry(const char* mode, std::string_view name, const git_oid& id) {
  std::string e = std::string(mode) + " ";
  e.append(name);
  e.push_back('\0');
  e.append(reinterpret_cast<const char*>(id.id), GIT_OID_RAWSZ);
  return e;
}

// What check_proposal must have refused in a top-level tree of
// `entries`; "" when they are canonical.
template <class Entry>
std::string canonical_entries_problem(const std::vector<Entry>& entries) {
  auto key = [](const Entry& e) { return std::string(e.name) + (e.mode->value == 0040000 ? "/" : ""); };
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    std::string_view text = e.mode->text;
    if (text != "100644" && text != "100755" && text != "40000") return "the mode '" + std::string(text) + "'";
    if (e.name.empty() || e.name.find('/') != std::string_view::npos) return "the name '" + printable(e.name) + "'";
    for (std::size_t j = 0; j < i; ++j)
      if (entries[j].name == e.name) return "the name '" + printable(e.name) + "' twice";
    if (i > 0 && !(key(entries[i - 1]) < key(e))) return "entries out of git's order at '" + printable(e.name) + "'";
  }
  return {};
}

inline std::string proposal_tree(std::string_view data) {
  const std::vector<std::string> prot{".ws/config.json", "Prot/"};
  struct Entry {
    const ModeChoice* mode;
    std::string_view name;
  };
  std::vector<Entry> entries;
  for (std::string_view rec : split(data, '\n')) {
    if (rec.empty()) continue;
    const ModeChoice& mode = kModes[static_cast<unsigned char>(rec[0]) % std::size(kModes)];
    std::string_view name = rec.substr(1);
    if (auto nul = name.find('\0'); nul != std::string_view::npos) name = name.substr(0, nul);
    if (auto p = change_problem(rec.substr(1), mode.value, prot); !p.empty()) return p;
    entries.push_back({&mode, name});
    if (entries.size() >= 64) break;
  }

  static MemRepo mem;
  git_mempack_reset(mem.mempack);
  auto write = [&](git_oid& out, const std::string& bytes, git_object_t type) {
    return git_odb_write(&out, mem.odb, bytes.data(), bytes.size(), type) == 0;
  };
  git_oid blob, other_blob, leaf, secrets, agents, base, prop;
  if (!write(blob, "{\"name\":\"A\"}\n", GIT_OBJECT_BLOB) || !write(other_blob, "other\n", GIT_OBJECT_BLOB))
    return "cannot write a blob";
  if (!write(leaf, raw_entry("100644", "a.json", blob), GIT_OBJECT_TREE) ||
      !write(secrets, raw_entry("100644", "Key", other_blob), GIT_OBJECT_TREE) ||
      !write(agents, raw_entry("100644", "a.json", blob) + raw_entry("100644", "b.json", other_blob),
             GIT_OBJECT_TREE))
    return "cannot write a tree";
  // The base: .secrets/Key, agents/{a,b}.json, x.
  if (!write(base,
             raw_entry("40000", ".secrets", secrets) + raw_entry("40000", "agents", agents) +
                 raw_entry("100644", "x", blob),
             GIT_OBJECT_TREE))
    return "cannot write the base tree";
  std::string raw;
  for (const Entry& e : entries) {
    const git_oid* id = &blob;
    if (e.mode->value == 0040000) id = &leaf;
    else if (e.mode->value == 0160000) id = &base;  // any id: a submodule's commit is never read
    raw += raw_entry(e.mode->text, e.name, *id);
  }
  if (!write(prop, raw, GIT_OBJECT_TREE)) return {};

  git_tree* base_tree = nullptr;
  if (git_tree_lookup(&base_tree, mem.repo, &base) < 0) return "cannot read the base tree back";
  ws::git::Tree base_owner(base_tree);
  for (git_tree* from : {base_tree, static_cast<git_tree*>(nullptr)}) {
    auto checked = ws::proposal::check_proposal(mem.repo, from, prop);
    if (!checked) {
      if (checked.error().code != ws::Errc::refused) return "not a refusal: " + printable(checked.error().message);
      if (has_control_byte(checked.error().message)) return "a refusal holds a control byte";
      continue;
    }
    if (auto p = canonical_entries_problem(entries); !p.empty()) return "check_proposal accepted " + p;
    for (const auto& c : checked->changes) {
      std::uint32_t mode = c.status == GIT_DELTA_DELETED ? std::uint32_t{GIT_FILEMODE_BLOB} : c.new_mode;
      if (auto p = change_problem(c.path, mode, prot); !p.empty()) return "tree diff: " + p;
    }
  }
  return {};
}

// ---------------------------------------------------------------- index file

// Bytes of an index file: read or refused, never a crash; what is read is
// sorted as git sorts it, and every lookup finds what the list holds.
inline std::string index_file(std::string_view data) {
  using ws::detail::IndexFile;
  IndexFile index = IndexFile::parse(data);
  if (index.state() == IndexFile::State::missing) return "parse says missing";
  if (index.state() == IndexFile::State::unsupported) {
    if (index.reason().empty()) return "unsupported without a reason";
    if (!index.entries().empty()) return "unsupported but holds entries";
    return {};
  }
  std::string_view previous;
  int previous_stage = -1;
  for (const auto& e : index.entries()) {
    std::string_view p = index.path(e);
    if (p.empty()) return "empty path";
    if (p.find('\0') != std::string_view::npos) return "NUL in a path";
    if (e.stage < 0 || e.stage > 3) return "stage out of range";
    if (p < previous || (p == previous && e.stage <= previous_stage)) return "entries out of order at '" + printable(p) + "'";
    if (e.stage == 0 && index.find(p) != &e) return "find misses '" + printable(p) + "'";
    for (std::size_t slash = p.find('/'); slash != std::string_view::npos; slash = p.find('/', slash + 1))
      if (!index.has_prefix(p.substr(0, slash + 1))) return "has_prefix misses a folder of '" + printable(p) + "'";
    previous = p;
    previous_stage = e.stage;
  }
  if (index.root_tree() && index.entries().empty() && data.size() < 32) return "root tree from nothing";
  return {};
}

// ---------------------------------------------------------------- dispatch

inline const std::vector<std::string>& target_names() {
  static const std::vector<std::string> names{"fuzz_reader_csharp", "fuzz_reader_json",  "fuzz_reader_markdown",
                                              "fuzz_path_policy",   "fuzz_kind_manifest", "fuzz_pathspec",
                                              "fuzz_proposal_tree", "fuzz_index_file"};
  return names;
}

// Runs the entry of the target called `name` (as its directory under
// tests/fuzz/regressions is called). Unknown names are an invariant failure.
inline std::string run_target(std::string_view name, std::string_view data) {
  if (name == "fuzz_reader_csharp") return reader(ws::Format::csharp, data);
  if (name == "fuzz_reader_json") return reader(ws::Format::json, data);
  if (name == "fuzz_reader_markdown") return reader(ws::Format::markdown, data);
  if (name == "fuzz_path_policy") return path_policy(data);
  if (name == "fuzz_kind_manifest") return kind_manifest(data);
  if (name == "fuzz_pathspec") return pathspec(data);
  if (name == "fuzz_proposal_tree") return proposal_tree(data);
  if (name == "fuzz_index_file") return index_file(data);
  return "no fuzz target is called '" + std::string(name) + "'";
}

// The libFuzzer side: a broken invariant is a crash, with the reason.
inline int fuzz_one(std::string_view name, const std::uint8_t* data, std::size_t size) {
  std::string problem = run_target(name, std::string_view(reinterpret_cast<const char*>(data), size));
  if (!problem.empty()) {
    std::fprintf(stderr, "%.*s: invariant broken: %s\n", static_cast<int>(name.size()), name.data(), problem.c_str());
    std::abort();
  }
  return 0;
}

}  // namespace wsfuzz
