// ws: the front door (ws(1)). One executable for every tool: run as ws-ls,
// ws-grep ... (links to it) it is that tool; run as ws, its first argument
// names the command. The tool runs in this process: nothing is executed.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/tools.h"
#include "libcheck/closest_name.h"

namespace {

using Entry = int (*)(int, char**);

struct Command {
  const char* name;  // "ls": run as `ws ls`, or as the link ws-ls
  Entry run;
  const char* summary;
};

// In the order `ws --help` lists them.
constexpr Command kCommands[] = {
    {"ls", wstools::run_ls, "list the definitions of the view"},
    {"grep", wstools::run_grep, "search the files of the view"},
    {"build", wstools::run_build, "check the pending changes"},
    {"commit", wstools::run_commit, "stage the pending changes as one proposal"},
    {"apply", wstools::run_apply, "list, show, reject and apply proposals"},
    {"init", wstools::run_init, "make .ws/config.json and the kind folders in a repository"},
    {"rename", wstools::run_rename, "rename a definition or a field and every reference to it"},
    {"lsp", wstools::run_lsp, "serve the workspace to an editor (Language Server Protocol)"},
    {"mcp", wstools::run_mcp, "serve the workspace to an AI agent (Model Context Protocol)"},
};

const Command* find_command(std::string_view name) {
  for (const auto& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

// The command a link names: "ws-ls" (or "/usr/bin/ws-ls") is ls.
const Command* command_of_program(std::string_view argv0) {
  std::string_view base = argv0.substr(argv0.rfind('/') == std::string_view::npos ? 0 : argv0.rfind('/') + 1);
  if (base.rfind("ws-", 0) != 0) return nullptr;
  return find_command(base.substr(3));
}

std::string usage() {
  std::string out =
      "Check, stage and apply workspace definitions kept in git.\n"
      "Usage: ws COMMAND [OPTIONS] [ARGS...]\n"
      "       ws help [COMMAND]\n\nCommands:\n";
  for (const auto& c : kCommands) out += fmt::format("  {:<8}{}\n", c.name, c.summary);
  out += fmt::format("  {:<8}{}\n", "help", "print this help, or a command's ('ws help ls' is 'ws ls --help')");
  out += "\nEach command is also its own program: 'ws ls' is 'ws-ls'. See ws(1) and ws(7).\n";
  return out;
}

int unknown_command(std::string_view name) {
  std::vector<std::string> names{"help"};
  for (const auto& c : kCommands) names.emplace_back(c.name);
  auto near = ws::closest_name(name, names);
  if (near)
    wscli::print_error("ws", fmt::format("unknown command '{}'; did you mean '{}'?", name, *near));
  else
    wscli::print_error("ws", fmt::format("unknown command '{}'; see 'ws --help'", name));
  return wscli::kExitUsage;
}

// `ws help [COMMAND]`: the command's own --help, as `ws COMMAND --help`.
int help(int argc, char** argv) {
  if (argc < 2) {
    fmt::print("{}", usage());
    return wscli::kExitOk;
  }
  if (argc > 2) {
    wscli::print_error("ws", fmt::format("unexpected argument '{}'; see 'ws --help'", argv[2]));
    return wscli::kExitUsage;
  }
  if (std::strcmp(argv[1], "help") == 0) {
    fmt::print("{}", usage());
    return wscli::kExitOk;
  }
  const Command* c = find_command(argv[1]);
  if (!c) return unknown_command(argv[1]);
  std::string name = std::string("ws-") + c->name, flag = "--help";
  char* args[] = {name.data(), flag.data(), nullptr};
  return c->run(2, args);
}

}  // namespace

int main(int argc, char** argv) {
  if (const Command* c = command_of_program(argc > 0 ? argv[0] : "")) return c->run(argc, argv);
  if (argc < 2) {
    fmt::print(stderr, "{}", usage());
    return wscli::kExitUsage;
  }
  std::string_view first = argv[1];
  if (first == "help") return help(argc - 1, argv + 1);
  if (first == "--help" || first == "-h") {
    fmt::print("{}", usage());
    return wscli::kExitOk;
  }
  if (first == "--version") {
    fmt::print("{}\n", wscli::version_line("ws"));
    return wscli::kExitOk;
  }
  if (const Command* c = find_command(first)) return c->run(argc - 1, argv + 1);
  if (!first.empty() && first[0] == '-') {
    wscli::print_error("ws", fmt::format("unknown option '{}'; a command comes first: see 'ws --help'", first));
    return wscli::kExitUsage;
  }
  return unknown_command(first);
}
