// classify_syntax: which bytes are code, comment, string, key or value.
#include "reader_test_util.h"

using namespace reader_test;

TEST_CASE("classify: C# code, comments, strings", "[classify]") {
  std::string src = "// name: X\nvar s = \"Agents\" + 'c'; /* b */ x = @\"v\";\n";
  CHECK(class_map(ws::Format::csharp, src) ==
        "mmmmmmmmmm"  // header line: a comment
        "cccccccccsssssssscccsssccmmmmmmmcccccsssscc");
  // interpolated strings: text is string, holes are code (with their own strings)
  std::string interp = "var t = $\"a {N.X(\"q\")} b\";";
  CHECK(class_map(ws::Format::csharp, interp) == "ccccccccsssscccccsssccsssc");
  std::string raw = "var r = \"\"\"raw \"x\" \"\"\";";
  CHECK(class_map(ws::Format::csharp, raw) == "ccccccccssssssssssssssc");
  // every byte is covered: code fills the gaps
  for (const auto& r : ws::classify_syntax(ws::Format::csharp, src)) CHECK(r.end_byte > r.start_byte);
  CHECK(class_map(ws::Format::csharp, src).find('.') == std::string::npos);
}

TEST_CASE("classify: JSON keys and values", "[classify]") {
  std::string src = "{\"name\": \"A\", \"n\": [1, true, null]}";
  CHECK(class_map(ws::Format::json, src) == ".kkkkkk..vvv..kkk...v..vvvv..vvvv..");
}

TEST_CASE("classify: Markdown front matter keys and values, body nothing", "[classify]") {
  std::string src = "---\nname: A\nincludes: [\"B\"]\n# c\n---\nname: body\n";
  CHECK(class_map(ws::Format::markdown, src) ==
        "...."
        "kkkk..v."
        "kkkkkkkk...vvv.."
        "mmm."
        "...."
        "...........");
  CHECK(ws::classify_syntax(ws::Format::markdown, "no front matter\n").empty());
  CHECK(ws::classify_syntax(ws::Format::opaque, "secret").empty());
}

TEST_CASE("classify: broken and binary input never crashes", "[classify]") {
  std::string junk;
  for (int i = 0; i < 50000; ++i) junk += static_cast<char>((i * 7919) % 256);
  for (auto f : {ws::Format::csharp, ws::Format::json, ws::Format::markdown}) {
    INFO(ws::format_name(f));
    class_map(f, junk);
    class_map(f, std::string(10000, '[') + std::string(10000, '{'));
    class_map(f, "---\n" + std::string(10000, '['));
    class_map(f, "");
  }
  CHECK(std::string(ws::syntax_class_name(ws::SyntaxClass::comment)) == "comment");
}

TEST_CASE("classify: region labels are comment, interpolation format specifiers string", "[classify]") {
  std::string region = "#region Agents.Triage\nvar a = 1;\n#endregion Agents\n";
  CHECK(class_map(ws::Format::csharp, region) ==
        "ccccccccmmmmmmmmmmmmmc"  // "#region " is code, the label comment
        "ccccccccccc"
        "cccccccccccmmmmmmc");
  std::string format = "var t = $\"{x:F2} {y,5:N0}\";";
  // the holes are code, each ':spec' string
  CHECK(class_map(ws::Format::csharp, format) == "ccccccccssccssscsccccssscsc");
}
