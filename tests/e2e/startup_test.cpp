// What every tool does before its work: here, that libgit2's start does not
// decode the system CA bundle (tools/startup/skip_ca_bundle.c). Checked with
// the dynamic linker's own report of where the call binds, so the test fails
// if the executables stop exporting the replacement.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::TempRepo;

TEST_CASE("every tool binds libgit2's CA bundle load to its own no-op", "[startup]") {
  TempRepo repo;
  repo.write("agents/AGtriage01.json", "{\n  \"name\": \"Triage\"\n}\n");
  repo.commit_all("base");
  const std::vector<std::pair<std::string, std::vector<std::string>>> calls{
      {"ws-ls", {}}, {"ws-grep", {"Triage"}}, {"ws-build", {}}, {"ws-commit", {"-m", "x"}}, {"ws-apply", {"--list"}}};
  for (const auto& [name, args] : calls) {
    INFO(name);
    wstest::RunOptions o;
    o.env["LD_DEBUG"] = "bindings";
    auto r = wstest::ws(name, args, repo.path(), o);
    CHECK(r.status <= 1);
    // "binding file /…/libgit2.so.1.5 [0] to /…/bin/ws-ls [0]: normal symbol `mbedtls_x509_crt_parse_file'"
    bool bound_to_tool = false, bound_elsewhere = false;
    for (const auto& line : wstest::lines(r.err)) {
      if (line.find("`mbedtls_x509_crt_parse_file'") == std::string::npos) continue;
      if (line.find("libgit2.so") == std::string::npos) continue;
      if (line.find(" to " + wstest::tool(name) + " [") != std::string::npos) bound_to_tool = true;
      else bound_elsewhere = true;
    }
    CHECK(bound_to_tool);
    CHECK_FALSE(bound_elsewhere);
  }
}
