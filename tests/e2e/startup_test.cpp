// What every tool does before its work: here, that libgit2's start does not
// decode the system CA bundle (tools/startup/skip_ca_bundle.c). Checked with
// strace, the kernel's own record of what a process opens, so the test holds
// whether the tools link libgit2 statically (the default: the linker wraps the
// call) or dynamically (the executable's definition wins), and fails if the
// replacement stops being used.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::TempDir;
using wstest::TempRepo;

namespace {

// Where Debian's libgit2 looks for trust anchors (GIT_DEFAULT_CERT_LOCATION).
constexpr const char* kBundle = "/etc/ssl/certs/ca-certificates.crt";

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("no tool opens the system CA bundle when libgit2 starts", "[startup]") {
  TempRepo repo;
  repo.write("agents/AGtriage01.json", "{\n  \"name\": \"Triage\"\n}\n");
  repo.commit_all("base");
  TempDir out;
  const std::string trace = out.path() + "/strace.out";
  const std::vector<std::pair<std::string, std::vector<std::string>>> calls{
      {"ws-ls", {}}, {"ws-grep", {"Triage"}}, {"ws-build", {}}, {"ws-commit", {"-m", "x"}}, {"ws-apply", {"--list"}}};
  for (const auto& [name, args] : calls) {
    INFO(name);
    std::vector<std::string> argv{"strace", "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", trace,
                                  wstest::tool(name)};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = wstest::run(argv, wstest::ws_options(repo.path()));
    INFO(r.err);
    CHECK(r.status <= 1);
    std::string opened = slurp(trace);
    // The trace is not empty: the tool did open its repository.
    CHECK(opened.find("/.git/config\"") != std::string::npos);
    CHECK(opened.find(kBundle) == std::string::npos);
  }
}
