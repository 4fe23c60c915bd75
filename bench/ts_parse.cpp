// ws-bench-ts-parse: the raw tree-sitter baseline of the cold-build benchmark.
//
//   ws-bench-ts-parse [--threads T] DIR
//
// Reads every definition file under DIR (skipping .git/ and .secrets/) and
// parses it with the grammars ws-build uses (the same ws_grammars library):
// `.cs` with C#, `.json` with JSON, `.md` front matter (between the two `---`
// lines) with YAML, as an included range, as the Markdown reader does.
// Nothing else: no header, schema, reference or cache work. T threads
// (default: all cores) take files from a shared counter.
//
// Prints files, bytes, parse errors, and the time and throughput of the
// parse phase alone (reading is timed apart); bench/run times the whole
// process with hyperfine, like the tools.
#include <tree_sitter/api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

extern "C" {
const TSLanguage* tree_sitter_c_sharp();
const TSLanguage* tree_sitter_json();
const TSLanguage* tree_sitter_yaml();
}

namespace fs = std::filesystem;

namespace {

enum Grammar { csharp, json, yaml, none };

struct File {
  Grammar grammar;
  std::string bytes;
};

Grammar grammar_of(const fs::path& p) {
  auto ext = p.extension();
  if (ext == ".cs") return csharp;
  if (ext == ".json") return json;
  if (ext == ".md") return yaml;
  return none;
}

// Byte range of the YAML front matter: after the first "---\n", up to the
// start of the next line that is "---".
bool front_matter(const std::string& b, std::uint32_t& begin, std::uint32_t& end) {
  if (b.rfind("---\n", 0) != 0) return false;
  begin = 4;
  std::size_t pos = 4;
  while (pos < b.size()) {
    std::size_t nl = b.find('\n', pos);
    std::size_t line_end = nl == std::string::npos ? b.size() : nl;
    if (b.compare(pos, line_end - pos, "---") == 0) {
      end = static_cast<std::uint32_t>(pos);
      return true;
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return false;
}

TSPoint point_at(const std::string& b, std::uint32_t offset) {
  TSPoint p{0, 0};
  for (std::uint32_t i = 0; i < offset; ++i) {
    if (b[i] == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    else if (dir.empty() && !a.empty() && a[0] != '-') dir = a;
    else {
      std::fprintf(stderr, "usage: ws-bench-ts-parse [--threads T] DIR\n");
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: ws-bench-ts-parse [--threads T] DIR\n");
    return 2;
  }

  auto t0 = std::chrono::steady_clock::now();
  std::vector<File> files;
  std::uint64_t bytes = 0;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    auto name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name == ".secrets")) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    Grammar g = grammar_of(it->path());
    if (g == none) continue;
    std::ifstream in(it->path(), std::ios::binary);
    File f{g, std::string(std::istreambuf_iterator<char>(in), {})};
    bytes += f.bytes.size();
    files.push_back(std::move(f));
  }
  auto t1 = std::chrono::steady_clock::now();

  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> errors{0};
  auto work = [&] {
    TSParser* parsers[3];
    const TSLanguage* langs[3] = {tree_sitter_c_sharp(), tree_sitter_json(), tree_sitter_yaml()};
    for (int g = 0; g < 3; ++g) {
      parsers[g] = ts_parser_new();
      ts_parser_set_language(parsers[g], langs[g]);
    }
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      const File& f = files[i];
      TSParser* p = parsers[f.grammar];
      std::uint32_t begin = 0, end = static_cast<std::uint32_t>(f.bytes.size());
      if (f.grammar == yaml && !front_matter(f.bytes, begin, end)) continue;
      TSRange range{point_at(f.bytes, begin), point_at(f.bytes, end), begin, end};
      ts_parser_set_included_ranges(p, &range, 1);
      TSTree* tree = ts_parser_parse_string(p, nullptr, f.bytes.data(), static_cast<std::uint32_t>(f.bytes.size()));
      if (!tree || ts_node_has_error(ts_tree_root_node(tree))) errors.fetch_add(1);
      if (tree) ts_tree_delete(tree);
    }
    for (TSParser* p : parsers) ts_parser_delete(p);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  auto t2 = std::chrono::steady_clock::now();

  double read_s = std::chrono::duration<double>(t1 - t0).count();
  double parse_s = std::chrono::duration<double>(t2 - t1).count();
  std::printf("files %zu bytes %llu threads %u errors %zu read_s %.3f parse_s %.3f parse_MBps %.1f\n", files.size(),
              static_cast<unsigned long long>(bytes), threads, errors.load(), read_s, parse_s,
              bytes / 1e6 / parse_s);
  return errors.load() ? 1 : 0;
}
