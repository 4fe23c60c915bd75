// Helpers shared by the reader tests: the default kind pack, the example
// workspace, and compact renderings of what a reader found.
#pragma once

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "libcheck/reader.h"

namespace reader_test {

inline const ws::KindPack& pack() {
  static const ws::KindPack p = [] {
    auto loaded = ws::KindPack::load(std::string(WS_SOURCE_DIR) + "/schemas/kinds");
    if (!loaded) FAIL(loaded.error().message);
    return std::move(loaded).value();
  }();
  return p;
}

inline std::string examples_dir() { return std::string(WS_SOURCE_DIR) + "/examples/workspace"; }

inline std::string slurp(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string example(const std::string& path) { return slurp(examples_dir() + "/" + path); }

// Reads `bytes` as the file at `path`, routed by the default pack (or `p`).
inline ws::Definition read(const std::string& path, std::string_view bytes, const ws::KindPack& p = pack()) {
  const ws::Kind* kind = p.route(path);
  REQUIRE(kind != nullptr);
  return ws::read_definition(*kind, path, bytes, p);
}

inline std::string at(const ws::Span& s) {
  return fmt::format("{}:{}-{}:{}", s.start.line, s.start.column, s.end.line, s.end.column);
}

// "ai-tool LookupCustomer @5:14-5:28", "node-type Ticket.Status @4:12-4:27"
inline std::vector<std::string> refs(const ws::Definition& d) {
  std::vector<std::string> out;
  for (const auto& r : d.refs)
    out.push_back(fmt::format("{} {}{} @{}", r.target_kind, r.name, r.member.empty() ? "" : "." + r.member, at(r.span)));
  return out;
}

inline std::vector<std::string> members(const ws::Definition& d) {
  std::vector<std::string> out;
  for (const auto& m : d.members) out.push_back(fmt::format("{} @{}", m.name, at(m.span)));
  return out;
}

// "WS006 3:3 unknown field ..."
inline std::vector<std::string> diags(const ws::Definition& d) {
  std::vector<std::string> out;
  for (const auto& x : d.diagnostics)
    out.push_back(fmt::format("{} {}:{} {}", ws::diag_info(x.code).id, x.span.start.line, x.span.start.column, x.message));
  return out;
}

inline std::string only_diag(const ws::Definition& d) {
  INFO(fmt::format("{}", fmt::join(diags(d), "\n")));
  REQUIRE(d.diagnostics.size() == 1);
  return diags(d).front();
}

// What a reader must find in a definition that reads without a diagnostic:
// its kind, its name where it stands, and its references in order.
struct Clean {
  std::string kind;
  std::string name;
  std::string name_at;
  std::vector<std::string> refs;
};

// Reads `bytes` as the file at `path` and checks it against `e`; the
// definition, for the checks a test adds.
inline ws::Definition check_clean(const std::string& path, std::string_view bytes, const Clean& e) {
  INFO(path);
  ws::Definition d = read(path, bytes);
  CHECK(d.diagnostics.empty());
  CHECK(d.kind == e.kind);
  CHECK(d.name == e.name);
  CHECK(at(d.name_span) == e.name_at);
  CHECK(refs(d) == e.refs);
  return d;
}

// The same for the example workspace's file at `path`.
inline ws::Definition check_example(const std::string& path, const Clean& e) {
  return check_clean(path, example(path), e);
}

inline bool has_code(const ws::Definition& d, ws::DiagCode code) {
  for (const auto& x : d.diagnostics)
    if (x.code == code) return true;
  return false;
}

// Every byte's class in `bytes` as a string of letters (c code, m comment,
// s string, k key, v value, . none), for compact classification checks.
inline std::string class_map(ws::Format f, std::string_view bytes) {
  std::string out(bytes.size(), '.');
  std::uint32_t last_end = 0;
  for (const auto& r : ws::classify_syntax(f, bytes)) {
    REQUIRE(r.start_byte >= last_end);  // sorted, non-overlapping
    REQUIRE(r.end_byte <= bytes.size());
    last_end = r.end_byte;
    static const char letters[] = {'c', 'm', 's', 'k', 'v'};
    for (std::uint32_t i = r.start_byte; i < r.end_byte; ++i) out[i] = letters[static_cast<int>(r.cls)];
  }
  return out;
}

}  // namespace reader_test
