// ws-bench-read-dump: the differential check of the readers' fast paths.
//
//   ws-bench-read-dump [--mutate] KINDS_DIR DIR
//
// Reads every file under DIR (skipping .git/) that the kind pack in
// KINDS_DIR routes, with read_definition, and prints per file its path and
// everything the build keeps of the definition (the cache record) plus each
// reference's text. With --mutate each file is also read cut at several
// lengths and with single bytes replaced, so that trees with errors, the
// nesting limit and the syntax checks are reached. Two builds print the
// same bytes when the readers answer the same: a change to the readers'
// speed is checked by comparing the output before and after it
// (bench/DIAGNOSES.md, diag-build-cold-10000).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "compile_record.h"
#include "libcheck/kinds.h"
#include "libcheck/reader.h"

namespace fs = std::filesystem;

namespace {

void dump(const ws::KindPack& pack, const ws::Kind& kind, const std::string& path, std::string_view bytes) {
  ws::Definition d = ws::read_definition(kind, path, bytes, pack);
  std::string record = ws::compile_detail::encode_record(d);
  std::cout << path << ' ' << bytes.size() << ' ' << record.size() << '\n' << record << '\n';
  for (const ws::Reference& r : d.refs) std::cout << r.text << '\n';
}

// Cut lengths and replaced bytes spread over the file, and the brackets
// that deepen or break its nesting.
std::vector<std::string> mutations(const std::string& bytes) {
  std::vector<std::string> out;
  std::size_t n = bytes.size();
  for (std::size_t k = 1; k < 8; ++k) out.push_back(bytes.substr(0, n * k / 8));
  static const char kReplacements[] = {'{', '}', '(', ')', '"', '/', '\\', ';', '\n', '\0', '\x80'};
  for (std::size_t k = 0; k < sizeof kReplacements; ++k) {
    std::string m = bytes;
    if (!m.empty()) m[(n * (2 * k + 1)) / (2 * sizeof kReplacements)] = kReplacements[k];
    out.push_back(std::move(m));
  }
  for (int depth : {255, 256, 257}) {
    std::size_t at = bytes.rfind('}');
    if (at == std::string::npos) at = n;
    out.push_back(bytes.substr(0, at) + std::string(depth, '[') + std::string(depth, ']') + bytes.substr(at));
    out.push_back(bytes.substr(0, at) + std::string(depth, '(') + "x" + std::string(depth, ')') + bytes.substr(at));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool mutate = !args.empty() && args[0] == "--mutate";
  if (mutate) args.erase(args.begin());
  if (args.size() != 2) {
    std::cerr << "usage: ws-bench-read-dump [--mutate] KINDS_DIR DIR\n";
    return 2;
  }
  auto pack = ws::KindPack::load(args[0]);
  if (!pack) {
    std::cerr << "ws-bench-read-dump: " << pack.error().message << '\n';
    return 2;
  }
  std::vector<std::string> paths;
  for (auto it = fs::recursive_directory_iterator(args[1]); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == ".git") it.disable_recursion_pending();
    if (it->is_regular_file()) paths.push_back(fs::relative(it->path(), args[1]).generic_string());
  }
  std::sort(paths.begin(), paths.end());
  std::size_t reads = 0;
  for (const std::string& path : paths) {
    const ws::Kind* kind = pack->route(path);
    if (!kind) continue;
    std::ifstream in(fs::path(args[1]) / path, std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in), {}};
    dump(*pack, *kind, path, bytes);
    ++reads;
    if (!mutate) continue;
    for (const std::string& m : mutations(bytes)) {
      dump(*pack, *kind, path, m);
      ++reads;
    }
  }
  std::cerr << reads << " reads\n";
  return 0;
}
