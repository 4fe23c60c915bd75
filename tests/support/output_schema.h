// The published schemas of the tools' --json output (schemas/output/,
// ws(7) JSON OUTPUT), checked on every output the tests see: run() checks
// the stdout of each tool it runs with --json or --format json, and tests
// reading such output parse it through json_records or build_report.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wstest {

// The tool whose --json output `argv` asks for, "ws-ls" ... "ws-apply", for
// argv[0] named ws-TOOL or `ws TOOL`, when an argument before any "--" is
// --json, --format json or --format=json, and none is --help, -h,
// --help-options or --version; else "".
std::string json_output_tool(const std::vector<std::string>& argv);

// What is wrong with `out` as the --json output of `tool`, one line per
// problem; "" when it is whole JSON Lines (every line ended, none empty),
// each line a record that schemas/output/<tool>.json accepts, every
// "<name>_bytes" member the base64 of bytes that are not UTF-8 and whose
// U+FFFD form is "<name>", and the summary (ws-build, ws-grep) is the last
// record and the only one. An empty output is valid (--quiet, nothing
// listed).
std::string output_problems(const std::string& tool, const std::string& out);

// Fails the running test (FAIL_CHECK) with the problems of `out`, if any.
void expect_valid_output(const std::string& tool, const std::string& out);

// The records of `tool`'s --json output `out`, once expect_valid_output
// passed on it.
std::vector<nlohmann::json> json_records(const std::string& tool, const std::string& out);

// ws-build's --json output gathered as {"diagnostics": [diagnostic records],
// "plan": [the change, impact and Impact-Truncated records], "summary": the
// summary record}, after expect_valid_output.
nlohmann::json build_report(const std::string& out);

}  // namespace wstest
