// ws lsp with a real editor: Neovim's built-in LSP client (Debian's
// neovim, headless) runs tests/support/nvim_lsp.lua against the example
// workspace: a typo's diagnostic at its range, cleared when fixed, a jump
// to a definition, a rename across four files written by the editor, and
// a clean shutdown. The files it writes must be those ws rename writes.
#include <catch2/catch.hpp>

#include <string>

#include "support/process.h"
#include "support/source_scan.h"
#include "support/temp_repo.h"

using wstest::TempDir;
using wstest::TempRepo;

TEST_CASE("neovim's LSP client shows ws lsp's diagnostic and renames across files", "[lsp][nvim]") {
  TempRepo repo, by_cli;
  for (const TempRepo* r : {&repo, &by_cli}) wstest::commit_example_workspace(*r, "Support desk workspace");
  TempDir home;
  wstest::RunOptions o = wstest::ws_options(repo.path());
  for (const char* dir : {"XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"})
    o.env[dir] = home.path() + "/" + dir;
  o.env["HOME"] = home.path();
  o.env["WS_NVIM_ROOT"] = repo.path();
  o.env["WS_NVIM_LOG"] = home.path() + "/log";
  o.env["WS_NVIM_SERVER"] = wstest::tool("ws");
  o.timeout_seconds = 120;
  auto r = wstest::run({"nvim", "--headless", "--clean", "-n", "-c",
                        "luafile " + std::string(WS_SOURCE_DIR) + "/tests/support/nvim_lsp.lua"},
                       o);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(wstest::read_file(home.path() + "/log") ==
        "started true\n"
        "initialized\n"
        "diagnostic 7:17-7:31 WS010 unresolved reference 'Agents.Bxlling'\n"
        "cleared\n"
        "definition AGbilling01.json 2:11\n"
        "renamed     return await Agents.Payments.Handoff(ticket);\n"
        "stopped\n");

  // What the editor wrote is what ws rename writes, and it builds clean.
  REQUIRE(wstest::ws("ws", {"rename", "--no-build", "agent", "Billing", "Payments"}, by_cli.path()).status == 0);
  for (const char* path : {"access/grants/GTsupport01.json", "agents/AGbilling01.json", "agents/AGtriage01.json",
                           "ai-tools/TLroute01.cs"}) {
    INFO(path);
    CHECK(repo.read(path) != by_cli.git({"show", std::string("HEAD:") + path}));
    CHECK(repo.read(path) == by_cli.read(path));
  }
  auto built = wstest::ws("ws-build", {}, repo.path());
  CHECK(built.status == 0);
  CHECK(built.out == "4 files changed, compiled clean.\n");
}
