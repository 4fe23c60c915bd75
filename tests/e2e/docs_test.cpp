// The man pages: they format cleanly with the real groff and man, and they
// agree with the tools (every option of each tool's CLI11 table, as printed by
// --help-options, is documented, and nothing else is), with the diagnostic
// table of libcheck, and with the default kind pack.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "libcheck/diagnostic.h"
#include "libcheck/kinds.h"
#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::lines;
using wstest::run;

namespace {

const std::vector<std::string> kTools{"ws-ls", "ws-grep", "ws-build", "ws-commit", "ws-apply"};

std::string page_path(const std::string& page) { return std::string(WS_SOURCE_DIR) + "/man/" + page; }

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The text of section `name` of a roff page: from its .SH line to the next
// .SH (subsections included).
std::string section(const std::string& roff, const std::string& name) {
  std::string head = ".SH " + name + "\n";
  auto start = roff.find(head);
  if (start == std::string::npos) return "";
  start += head.size();
  auto end = roff.find("\n.SH ", start);
  return roff.substr(start, end == std::string::npos ? std::string::npos : end + 1 - start);
}

// An option name as roff writes it: "--no-cache" -> "\-\-no\-cache".
std::string roff_escape(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '-') out += "\\-";
    else out += c;
  }
  return out;
}

// True when `text` holds the roff-escaped option `name` as a whole token: not
// the tail of a longer option (\-l inside \-\-list) or of a word (pre\-commit).
bool mentions_option(const std::string& text, const std::string& name) {
  std::string needle = roff_escape(name);
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    char before = pos == 0 ? ' ' : text[pos - 1];
    std::size_t after_pos = pos + needle.size();
    char after = after_pos < text.size() ? text[after_pos] : ' ';
    bool after_ok = !std::isalnum(static_cast<unsigned char>(after)) &&
                    !(after == '\\' && text.compare(after_pos, 2, "\\-") == 0);
    if (before != '-' && !std::isalpha(static_cast<unsigned char>(before)) && after_ok) return true;
  }
  return false;
}

struct ToolOption {
  std::vector<std::string> names;  // "-l", "--long"; a positional's name has no dash
  std::string type;
};

// The option table of `tool`; "ws init" is the front door's command.
std::vector<ToolOption> option_table(const std::string& tool) {
  auto r = tool.rfind("ws ", 0) == 0 ? run({wstest::tool("ws"), tool.substr(3), "--help-options"})
                                      : run({wstest::tool(tool), "--help-options"});
  INFO(tool << " --help-options: " << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(r.err == "");
  std::vector<ToolOption> out;
  for (const auto& line : lines(r.out)) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
      auto tab = line.find('\t', start);
      fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    INFO("line: " << line);
    REQUIRE(fields.size() == 4);
    ToolOption o;
    std::stringstream names(fields[0]);
    for (std::string n; std::getline(names, n, ',');) o.names.push_back(n);
    o.type = fields[1];
    out.push_back(o);
  }
  return out;
}

}  // namespace

TEST_CASE("every man page passes groff -ww -z without a word", "[docs]") {
  for (const std::string page : {"ws.1", "ws-ls.1", "ws-grep.1", "ws-build.1", "ws-commit.1", "ws-apply.1", "ws-rename.1", "ws-lsp.1", "ws-mcp.1", "ws.7"}) {
    INFO(page);
    REQUIRE(fs::is_regular_file(page_path(page)));
    auto r = run({"groff", "-ww", "-z", "-man", page_path(page)});
    CHECK(r.err == "");
    CHECK(r.out == "");
    CHECK(r.status == 0);
  }
}

TEST_CASE("man -l renders every page with its sections and no warning", "[docs]") {
  wstest::RunOptions o;
  o.env = {{"MANWIDTH", "80"}, {"MANPAGER", "cat"}, {"PAGER", "cat"}, {"LC_ALL", "C.UTF-8"}};
  o.unset_env = {"MANPATH", "MANOPT", "MAN_KEEP_FORMATTING"};
  for (const std::string page : {"ws.1", "ws-ls.1", "ws-grep.1", "ws-build.1", "ws-commit.1", "ws-apply.1", "ws-rename.1", "ws-lsp.1", "ws-mcp.1", "ws.7"}) {
    INFO(page);
    auto r = run({"man", "--warnings=all", "-E", "UTF-8", "-l", page_path(page)}, o);
    CHECK(r.err == "");
    CHECK(r.status == 0);
    auto out = lines(r.out);
    REQUIRE(out.size() > 20);
    // "WS-BUILD(1)   ws manual   WS-BUILD(1)"
    std::string title = page.substr(0, page.find('.'));
    std::transform(title.begin(), title.end(), title.begin(), [](unsigned char c) { return std::toupper(c); });
    title += "(" + page.substr(page.find('.') + 1) + ")";
    CHECK(out.front().rfind(title + " ", 0) == 0);
    CHECK(out.front().find(" ws manual ") != std::string::npos);
    // No roff escape leaks into the text.
    CHECK(r.out.find("\\f") == std::string::npos);
    CHECK(r.out.find("\\(") == std::string::npos);
    CHECK(r.out.find("\\-") == std::string::npos);

    // The NAME line as written, whatever the justification did to its spaces.
    std::string roff = read_file(page_path(page));
    std::string name_line = lines(section(roff, "NAME")).at(0);
    std::string expected;
    for (std::size_t i = 0; i < name_line.size(); ++i)
      if (!(name_line[i] == '\\' && i + 1 < name_line.size() && name_line[i + 1] == '-')) expected += name_line[i];
    auto name_at = std::find(out.begin(), out.end(), "NAME");
    REQUIRE(name_at != out.end());
    std::string rendered;
    for (auto it = name_at + 1; it != out.end() && !it->empty(); ++it) rendered += " " + *it;
    std::string collapsed;
    for (char c : rendered)
      if (!(c == ' ' && (collapsed.empty() || collapsed.back() == ' '))) collapsed += c;
    CHECK(collapsed == expected);

    // The sections every page has, in order.
    std::vector<std::string> wanted{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT",
                                    "EXAMPLES", "SEE ALSO"};
    if (page == "ws.7") wanted = {"NAME", "DESCRIPTION", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"};
    auto at = out.begin();
    for (const auto& s : wanted) {
      INFO("section " << s);
      auto found = std::find(at, out.end(), s);
      CHECK(found != out.end());
      if (found != out.end()) at = found;
    }
  }
}

TEST_CASE("each tool's man page documents exactly the options the tool has", "[docs]") {
  std::vector<std::string> tools = kTools;
  tools.push_back("ws init");    // in ws(1)
  tools.push_back("ws rename");  // in ws-rename(1)
  tools.push_back("ws lsp");     // in ws-lsp(1)
  tools.push_back("ws mcp");     // in ws-mcp(1)
  for (const auto& tool : tools) {
    INFO(tool);
    std::string page = tool == "ws init"     ? "ws.1"
                       : tool == "ws rename" ? "ws-rename.1"
                       : tool == "ws lsp"    ? "ws-lsp.1"
                       : tool == "ws mcp"    ? "ws-mcp.1"
                                             : tool + ".1";
    std::string roff = read_file(page_path(page));
    std::string options = section(roff, "OPTIONS");
    std::string synopsis = section(roff, "SYNOPSIS");
    REQUIRE(!options.empty());
    REQUIRE(!synopsis.empty());

    std::set<std::string> long_names{"--help-options"};  // hidden from the table, documented all the same
    if (tool.rfind("ws ", 0) == 0) long_names.insert("--version");  // ws --version, the front door's own
    std::set<std::string> short_names;
    for (const auto& opt : option_table(tool)) {
      for (const auto& n : opt.names) {
        INFO("option " << n);
        if (n.rfind("--", 0) == 0) long_names.insert(n);
        else if (n.rfind("-", 0) == 0) short_names.insert(n);
        if (n[0] == '-') {
          CHECK(mentions_option(options, n));
        } else {
          // A positional argument: its type (PATHSPEC, ID), or its name when
          // it has none (PATTERN), is in the synopsis.
          std::string type = opt.type.empty() ? n : opt.type.substr(0, opt.type.find(' '));
          CHECK(std::regex_search(synopsis, std::regex("(^|[\\s\\[])" + type + "(\\s|$)")));
        }
      }
    }
    CHECK(long_names.count("--help"));
    CHECK(long_names.count("--version"));

    // The other direction: every option the OPTIONS section names exists.
    std::regex long_re(R"((\\-\\-[a-z][a-z0-9]*(\\-[a-z0-9]+)*))");
    for (auto it = std::sregex_iterator(options.begin(), options.end(), long_re); it != std::sregex_iterator(); ++it) {
      std::string name = it->str();
      std::string plain;
      for (std::size_t i = 0; i < name.size(); ++i)
        if (name[i] != '\\') plain += name[i];
      INFO("documented " << plain);
      CHECK(long_names.count(plain) == 1);
    }
    std::regex short_re(R"((^|[^-A-Za-z\\])\\-([A-Za-z])(?![A-Za-z0-9]))");
    for (auto it = std::sregex_iterator(options.begin(), options.end(), short_re); it != std::sregex_iterator(); ++it) {
      std::string plain = "-" + (*it)[2].str();
      INFO("documented " << plain);
      CHECK(short_names.count(plain) == 1);
    }
  }
}

TEST_CASE("ws-build(1) explains every diagnostic code with its summary and severity", "[docs]") {
  std::string roff = read_file(page_path("ws-build.1"));
  std::string diags = section(roff, "DIAGNOSTICS");
  REQUIRE(!diags.empty());
  std::size_t headers = 0;
  for (auto pos = diags.find("\n.BR WS"); pos != std::string::npos; pos = diags.find("\n.BR WS", pos + 1)) ++headers;
  CHECK(headers == ws::all_diagnostics().size());
  std::size_t last = 0;
  for (const auto& d : ws::all_diagnostics()) {
    std::string header = std::string(".TP\n.BR ") + d.id + " \" \\(em " + d.summary + " (" +
                         ws::severity_name(d.severity) + ")\"\n";
    INFO(header);
    auto at = diags.find(header);
    CHECK(at != std::string::npos);
    // In table order, and followed by an explanation.
    if (at != std::string::npos) {
      CHECK(at >= last);
      last = at;
      std::size_t body = at + header.size();
      CHECK(diags.compare(body, 1, ".") != 0);
    }
  }
}

TEST_CASE("ws(7) describes every kind of the default pack and the environment", "[docs]") {
  std::string roff = read_file(page_path("ws.7"));
  std::string kinds = section(roff, "THE DEFAULT KINDS");
  REQUIRE(!kinds.empty());
  auto pack = ws::KindPack::load(std::string(WS_SOURCE_DIR) + "/schemas/kinds");
  REQUIRE(pack);
  std::size_t entries = 0;
  for (auto pos = kinds.find(".TP\n.B "); pos != std::string::npos; pos = kinds.find(".TP\n.B ", pos + 1)) ++entries;
  CHECK(entries == pack->kinds().size());
  for (const auto& k : pack->kinds()) {
    INFO(k.name);
    CHECK(kinds.find(".TP\n.B " + roff_escape(k.name) + "\n" + ".BR " + roff_escape(k.dir)) != std::string::npos);
    if (!k.symbol_root.empty()) CHECK(kinds.find(".BR " + k.symbol_root + ". \\fIname\\fP") != std::string::npos);
  }
  std::string env = section(roff, "ENVIRONMENT");
  for (const std::string var : {"WS_SESSION", "WS_KINDS_DIR", "NO_COLOR"}) {
    INFO(var);
    CHECK(env.find(".B " + var + "\n") != std::string::npos);
  }
  for (const std::string s : {"DEFINITIONS", "KIND MANIFESTS", "WORKSPACE CONFIGURATION", "VIEWS", "PATH POLICY",
                              "PROPOSALS", "SHELL COMPLETION"}) {
    INFO(s);
    CHECK(!section(roff, s).empty());
  }
}
