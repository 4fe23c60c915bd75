// The tools of the multi-call executable `ws` (ws(1)): each one's entry
// point, run in process under its own name (ws-ls ...) or as `ws ls ...`.
// Each takes its command line as main would, argv[0] being the command's
// name, and returns the exit status (ws(7), EXIT STATUS).
#pragma once

namespace wstools {

int run_ls(int argc, char** argv);
int run_grep(int argc, char** argv);
int run_build(int argc, char** argv);
int run_commit(int argc, char** argv);
int run_apply(int argc, char** argv);
int run_init(int argc, char** argv);
int run_rename(int argc, char** argv);
int run_lsp(int argc, char** argv);
int run_mcp(int argc, char** argv);

}  // namespace wstools
