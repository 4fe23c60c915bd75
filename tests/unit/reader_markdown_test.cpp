// The Markdown reader: YAML front matter as the definition object, with
// positions mapped back into the file.
#include "reader_test_util.h"
#include "front_matter.h"
#include "yaml_scalars.h"

using namespace reader_test;
using Strings = std::vector<std::string>;

TEST_CASE("markdown: the example prompts and skill", "[reader][markdown]") {
  ws::Definition d =
      check_example("prompts/PRtriage01.md", {"prompt", "TriageInstructions", "2:7-2:25", {"prompt Tone @5:5-5:9"}});
  CHECK(d.refs[0].origin == ws::RefOrigin::json);
  // A flow sequence of includes.
  check_example("prompts/PRbilling01.md", {"prompt", "BillingInstructions", "2:7-2:26", {"prompt Tone @3:12-3:16"}});
  check_example("prompts/PRtone01.md", {"prompt", "Tone", "2:7-2:11", {}});
  check_example("skills/SKsummarize01.md", {"skill", "Summarize", "2:7-2:16", {}});
}

TEST_CASE("markdown: the front matter block", "[reader][markdown]") {
  CHECK(only_diag(read("prompts/p.md", "Just text, no front matter.\n")) ==
        "WS007 1:1 missing name: a prompt needs a front matter block at the top of the file: a '---' line, "
        "'name: ...', and a closing '---' line");
  CHECK(only_diag(read("prompts/p.md", "--- \nname: A\n---\n")).substr(0, 9) == "WS007 1:1");
  CHECK(only_diag(read("prompts/p.md", "")).substr(0, 9) == "WS007 1:1");
  CHECK(only_diag(read("prompts/p.md", "---\nname: A\n")) ==
        "WS001 1:1 syntax error: the front matter is not closed by a '---' line");
  CHECK(only_diag(read("prompts/p.md", "---\n---\nbody\n")) == "WS007 2:1 missing name: the front matter has no 'name' field");
  CHECK(only_diag(read("prompts/p.md", "---\nname:\n---\n")) == "WS007 2:1 missing name: the name has no value");
  // the body is free text: YAML-looking or not, it is never read
  ws::Definition d = read("prompts/p.md", "---\nname: A\n---\nname: [unclosed\n---\n: : :\n");
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "A");
}

TEST_CASE("markdown: schema and name problems at their position", "[reader][markdown]") {
  ws::Definition d = read("prompts/p.md", "---\nname: Tone\ntoosl: x\n---\nbody\n");
  CHECK(only_diag(d) == "WS006 3:1 unknown field 'toosl' in prompt; allowed: description, includes, name");
  CHECK(at(d.diagnostics[0].span) == "3:1-3:6");
  CHECK(d.name == "Tone");
  CHECK(only_diag(read("prompts/p.md", "---\ndescription: x\n---\n")) ==
        "WS007 2:1 missing name: the front matter has no 'name' field");
  CHECK(only_diag(read("prompts/p.md", "---\nname: class\n---\n")) ==
        "WS008 2:7 invalid name 'class': it is a C# keyword, so code could not write Prompts.class");
  CHECK(diags(read("prompts/p.md", "---\nname: true\nincludes: Tone\n---\n")) ==
        Strings{"WS006 2:7 'name' must be a string, not a boolean", "WS006 3:11 'includes' must be an array, not a string"});
  CHECK(only_diag(read("prompts/p.md", "---\nname: A\nincludes: [Tone, [x]]\n---\n")) ==
        "WS006 3:18 'includes[1]' must be a string, not an array");
  d = read("prompts/p.md", "---\nname: A\nname: B\n---\n");
  CHECK(only_diag(d) == "WS006 3:1 duplicate key 'name'");
  CHECK(d.name == "A");
  // numbers are not guessed: 12 is the string "12" (and not an identifier)
  CHECK_THAT(only_diag(read("prompts/p.md", "---\nname: 12\n---\n")), Catch::Contains("not a C# identifier"));
}

TEST_CASE("markdown: YAML syntax errors and unsupported YAML", "[reader][markdown]") {
  CHECK(only_diag(read("prompts/p.md", "---\nname: A\ndescription: [unclosed\nincludes: [x]\n---\n")) ==
        "WS001 3:14 syntax error: unexpected '[unclosed'");
  CHECK(only_diag(read("prompts/p.md", "---\nname: &x A\ndescription: *x\n---\n")) ==
        "WS006 2:7 YAML anchors are not supported in front matter; write the value in place");
  CHECK(only_diag(read("prompts/p.md", "---\nname: A\ndescription: *x\n---\n")) ==
        "WS006 3:14 YAML aliases are not supported in front matter; write the value in place");
  CHECK(only_diag(read("prompts/p.md", "---\nname: !!str A\n---\n")) == "WS006 2:7 YAML tags are not supported in front matter");
  CHECK(only_diag(read("prompts/p.md", "---\nname: A\n...\nfoo: b\n---\n")) ==
        "WS001 4:1 syntax error: front matter must be a single YAML document");
  CHECK(only_diag(read("prompts/p.md", "---\n- a\n- b\n---\n")) ==
        "WS006 2:1 the front matter must be a YAML mapping of 'key: value' lines");
}

TEST_CASE("markdown: scalar styles", "[reader][markdown]") {
  ws::Definition d = read("prompts/p.md",
                          "---\n# a comment\nname: \"Quoted\"  # trailing comment\n"
                          "description: >\n  folded\n  text\nincludes: ['Single', \"Dou\\x62le\", Plain]\n---\n");
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "Quoted");
  CHECK(at(d.name_span) == "3:8-3:14");  // inside the quotes
  CHECK(refs(d) == Strings{"prompt Single @7:13-7:19", "prompt Double @7:23-7:32", "prompt Plain @7:35-7:40"});

  using namespace ws::detail;
  CHECK(plain_scalar_value("one\n  two\n\n  three") == "one two\nthree");
  CHECK(single_quoted_value("'it''s'") == "it's");
  std::string out, error;
  CHECK(double_quoted_value(R"("a\tb\u00e9\"\\")", out, error));
  CHECK(out == "a\tb\xc3\xa9\"\\");
  CHECK(double_quoted_value("\"split \\\n  line\"", out, error));
  CHECK(out == "split line");
  CHECK_FALSE(double_quoted_value(R"("\q")", out, error));
  CHECK(error == "invalid escape '\\q'");
  CHECK_FALSE(double_quoted_value(R"("\ud800")", out, error));
  CHECK(block_scalar_value("|\n  line one\n  line two\n", 0) == "line one\nline two\n");
  CHECK(block_scalar_value("|-\n  line one\n  line two\n", 0) == "line one\nline two");
  CHECK(block_scalar_value(">\n  folded\n  text\n\n  para\n", 0) == "folded text\npara\n");
  CHECK(block_scalar_value("|+\n  keep\n\n\n", 0) == "keep\n\n\n");
  CHECK(block_scalar_value("|2\n    indented\n", 0) == "  indented\n");

  FrontMatter fm = find_front_matter("---\r\nname: A\r\n---\r\nbody", 0);
  CHECK(fm.present);
  CHECK(fm.closed);
  CHECK(fm.yaml_begin == 5);
  CHECK(fm.yaml_end == 14);
}

TEST_CASE("markdown: encodings, CRLF, BOM", "[reader][markdown]") {
  CHECK(only_diag(read("prompts/p.md", std::string("---\nname: A\n---\nbo\0dy\n", 20))) ==
        "WS002 4:3 NUL byte: definitions are UTF-8 text");
  CHECK(only_diag(read("prompts/p.md", "---\nname: A\n---\n\xfe\n")).substr(0, 9) == "WS002 4:1");
  ws::Definition d = read("prompts/p.md", "---\r\nname: Crlf\r\nincludes:\r\n  - Tone\r\n---\r\nbody\r\n");
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "Crlf");
  CHECK(at(d.name_span) == "2:7-2:11");
  CHECK(refs(d) == Strings{"prompt Tone @4:5-4:9"});
  d = read("skills/s.md", "\xef\xbb\xbf---\nname: Bom\n---\n");
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "Bom");
  CHECK(at(d.name_span) == "2:7-2:10");
}

TEST_CASE("markdown: deep, huge and junk input", "[reader][markdown]") {
  ws::Definition d =
      read("prompts/p.md", "---\nname: A\nx: " + std::string(10000, '[') + std::string(10000, ']') + "\n---\n");
  CHECK(only_diag(d) == "WS016 3:259 nesting deeper than 256 levels");
  // far past the limit, refused before parsing: at the 257th bracket
  d = read("prompts/p.md", "---\nname: A\nx: " + std::string(20000, '[') + std::string(20000, ']') + "\n---\n");
  CHECK(only_diag(d) == "WS016 3:260 nesting deeper than 256 levels");
  std::string flow = "---\nname: A\nx: ";
  for (int i = 0; i < 10000; ++i) flow += "{a: ";
  d = read("prompts/p.md", flow + "1" + std::string(10000, '}') + "\n---\n");
  CHECK(d.diagnostics.front().code == ws::DiagCode::too_deep);
  std::string block = "---\nname: A\n";
  for (int i = 0; i < 3000; ++i) block += std::string(static_cast<std::size_t>(i), ' ') + "k:\n";
  d = read("prompts/p.md", block + "---\n");
  REQUIRE_FALSE(d.diagnostics.empty());
  CHECK((d.diagnostics[0].code == ws::DiagCode::too_deep || d.diagnostics[0].code == ws::DiagCode::syntax_error));
  d = read("prompts/p.md", "---\nname: A\nx:\n" + [] {
    std::string s;
    for (int i = 0; i < 10000; ++i) s += "- ";
    return s;
  }() + "a\n---\n");
  REQUIRE_FALSE(d.diagnostics.empty());

  std::string big = "---\nname: Big\ndescription: " + std::string(2u << 20, 'y') + "\nincludes:\n";
  for (int i = 0; i < 10000; ++i) big += "  - P" + std::to_string(i) + "\n";
  d = read("prompts/p.md", big + "---\n" + std::string(1u << 20, 'z'));
  CHECK(d.diagnostics.empty());
  CHECK(d.refs.size() == 10000);

  std::string junk = "---\n";
  for (int i = 0; i < 100000; ++i) junk += "{}[]:,-?&*!|>'\"%@`# ab\n"[(i * 7919) % 23];
  d = read("prompts/p.md", junk + "\n---\n");
  CHECK_FALSE(d.diagnostics.empty());
}
