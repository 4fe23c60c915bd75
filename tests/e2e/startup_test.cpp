// What every tool does before its work: here, that libgit2's start does not
// decode the system CA bundle (tools/startup/skip_ca_bundle.c). Checked with
// strace, the kernel's own record of what a process opens, so the test holds
// whether the tools link libgit2 statically (the default: the linker wraps the
// call) or dynamically (the executable's definition wins), and fails if the
// replacement stops being used.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
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
    auto r = wstest::run(argv, wstest::traced_options(repo.path()));
    INFO(r.err);
    CHECK(r.status <= 1);
    std::string opened = slurp(trace);
    // The trace is not empty: the tool did open its repository.
    CHECK(opened.find("/.git/config\"") != std::string::npos);
    CHECK(opened.find(kBundle) == std::string::npos);
  }
}

#if WS_TEST_STATIC_DEPS
TEST_CASE("statically linked tools need no shared library but the C library", "[startup]") {
  // libgit2's TLS, SSH and GSSAPI code is left out (tools/startup/no_network.c):
  // no mbedTLS, libssh2, OpenSSL or Kerberos in the tools, and nothing loaded
  // at start but the C library (libc, libm and the dynamic linker itself).
  for (const char* name : {"ws-ls", "ws-grep", "ws-build", "ws-commit", "ws-apply"}) {
    INFO(name);
    auto r = wstest::run({"readelf", "--dynamic", "--wide", wstest::tool(name)});
    REQUIRE(r.status == 0);
    std::vector<std::string> needed;
    for (const auto& line : wstest::lines(r.out)) {
      auto at = line.find("(NEEDED)");
      if (at == std::string::npos) continue;
      auto open = line.find('[', at), close = line.find(']', at);
      if (open != std::string::npos && close != std::string::npos) needed.push_back(line.substr(open + 1, close - open - 1));
    }
    std::sort(needed.begin(), needed.end());
    CHECK(needed == std::vector<std::string>{"ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6"});
    auto symbols = wstest::run({"nm", wstest::tool(name)});
    REQUIRE(symbols.status == 0);
    for (const char* absent : {" libssh2_init", " mbedtls_ssl_setup", " OPENSSL_init_crypto", " gss_init_sec_context"}) {
      INFO(absent);
      CHECK(symbols.out.find(absent) == std::string::npos);
    }
  }
}
#endif
