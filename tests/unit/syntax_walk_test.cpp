// The cheap paths a reader takes through a tree without errors (ts_util.h:
// TypeSet, walk_clean, Nesting; the JSON prescan) must answer exactly as the
// full cursor walk with type-name compares does. These tests pin that: the
// primitives against the walk they replace, over every example file, and
// the readers on the inputs where a shortcut could go wrong (a '/' or a
// bracket inside a string, escapes before a comment, the nesting limit
// reached in a tree that parsed whole).
#include "reader_test_util.h"

#include <filesystem>
#include <map>
#include <set>

#include "ts_util.h"

using namespace reader_test;
using ws::detail::Grammar;

namespace {

struct Source {
  Grammar grammar;
  std::string bytes;
  std::uint32_t begin, end;
};

// Every example file, parsed as its reader parses it (Markdown: the front
// matter only), plus C# written to reach constructs the examples lack.
std::vector<Source> sources() {
  std::vector<Source> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(examples_dir())) {
    if (!e.is_regular_file()) continue;
    std::string ext = e.path().extension().string();
    std::string bytes = slurp(e.path().string());
    auto size = static_cast<std::uint32_t>(bytes.size());
    if (ext == ".cs") out.push_back({Grammar::csharp, bytes, 0, size});
    if (ext == ".json") out.push_back({Grammar::json, bytes, 0, size});
    if (ext == ".md" && bytes.rfind("---\n", 0) == 0) {
      auto close = static_cast<std::uint32_t>(bytes.find("\n---", 4));
      if (close != std::string::npos) out.push_back({Grammar::yaml, bytes, 4, close + 1});
    }
  }
  out.push_back({Grammar::csharp,
                 "using A = System.Text;\nnamespace Agents.Billing { class C<N> where N : INumber<N> { int P { get; } "
                 "event E Ev; void M(int x) { } } }\nvar q = from a in xs join b in ys on a equals b into g let c = 1 "
                 "select c;\nvar s = $\"{global::Agents.T:F2} {x,-5}\";\nvar y = x switch { 1 => Agents?.One, _ => "
                 "@Agents.Two };\n#if DEBUG\nfoo();\n#endif\nforeach (var (k, v) in d) { try { } catch (E e) when (e "
                 "is { M: 1 }) { } }\n",
                 0, 0});
  out.back().end = static_cast<std::uint32_t>(out.back().bytes.size());
  return out;
}

ws::detail::Tree parse(const Source& s, const ws::detail::LineIndex& lines) {
  ws::detail::Tree tree = ws::detail::parse(s.grammar, s.bytes, s.begin, s.end, lines);
  REQUIRE(tree);
  return tree;
}

}  // namespace

TEST_CASE("TypeSet answers as the node type name does", "[ts_util][fastpath]") {
  for (const Source& s : sources()) {
    ws::detail::LineIndex lines(s.bytes);
    ws::detail::Tree tree = parse(s, lines);
    std::vector<TSNode> nodes;
    std::set<std::string> types{"ERROR", "comment", "identifier", "object"};
    ws::detail::walk(ts_tree_root_node(tree.get()), [&](TSNode n, int, const char*, bool&) {
      nodes.push_back(n);
      types.insert(ts_node_type(n));
      return true;
    });
    for (const std::string& type : types) {
      ws::detail::TypeSet set(s.grammar, {type.c_str()});
      for (TSNode n : nodes) {
        INFO(type << " vs " << ts_node_type(n));
        CHECK(set.has(n) == ws::detail::is(n, type.c_str()));
      }
    }
  }
}

TEST_CASE("walk_clean visits the named nodes of the cursor walk in order at their depths and fields",
          "[ts_util][fastpath]") {
  struct Step {
    const void* id;
    int depth;
    std::string field;
  };
  for (const Source& s : sources()) {
    ws::detail::LineIndex lines(s.bytes);
    ws::detail::Tree tree = parse(s, lines);
    TSNode root = ts_tree_root_node(tree.get());
    REQUIRE_FALSE(ts_node_has_error(root));

    std::vector<Step> expected;
    ws::detail::walk(root, [&](TSNode n, int depth, const char* field, bool&) {
      // What lets walk_clean skip anonymous nodes: they never have children.
      if (!ts_node_is_named(n)) CHECK(ts_node_child_count(n) == 0);
      if (ts_node_is_named(n)) expected.push_back({n.id, depth, field ? field : ""});
      return true;
    });

    std::vector<Step> got;
    std::vector<TSNode> parents;
    ws::detail::walk_clean(root, [&](TSNode n, int depth, std::uint32_t index) {
      parents.resize(static_cast<std::size_t>(depth));
      const char* field = depth == 0 ? nullptr : ts_node_field_name_for_named_child(parents.back(), index);
      got.push_back({n.id, depth, field ? field : ""});
      parents.push_back(n);
      return true;
    });

    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO("node " << i);
      CHECK(got[i].id == expected[i].id);
      CHECK(got[i].depth == expected[i].depth);
      CHECK(got[i].field == expected[i].field);
    }
  }
}

TEST_CASE("json: the comment and nesting prescan is not fooled by strings", "[reader][json][fastpath]") {
  // A '/' inside a string is no comment; the comment after it still is.
  CHECK(only_diag(read("agents/a.json", "{\"u\": \"https://a/b\", // c\n \"name\": \"A\"}")) ==
        "WS001 1:22 syntax error: comments are not allowed in JSON");
  // An escaped quote does not end the string, so '//' inside it is text.
  CHECK(only_diag(read("agents/a.json", "{\"name\": \"a\\\"// not a comment\", \"description\": \"x\" /* c */}")) ==
        "WS001 1:52 syntax error: comments are not allowed in JSON");
  // An escaped backslash does end it: the comment right after counts.
  CHECK(only_diag(read("agents/a.json", "{\"name\": \"A\\\\\"/*c*/}")) ==
        "WS001 1:15 syntax error: comments are not allowed in JSON");
  // Brackets inside a string nest nothing.
  std::string brackets = "{\"name\": \"A\", \"description\": \"" + std::string(300, '[') + std::string(300, '{') + "\"}";
  CHECK(read("agents/a.json", brackets).diagnostics.empty());
  // 256 levels of arrays under the object are 257: the first one too deep is reported.
  std::string deep = "{\"name\": \"A\", \"x\": " + std::string(256, '[') + std::string(256, ']') + "}";
  CHECK(only_diag(read("agents/a.json", deep)) == "WS016 1:275 nesting deeper than 256 levels");
  // Escapes, a '/' and brackets in strings before 256 levels: clean but for the unknown field.
  std::string mixed = "{\"name\": \"A\", \"description\": \"a/b \\\" [ { \\\\\", \"x\": " + std::string(255, '[') +
                      std::string(255, ']') + "}";
  CHECK(only_diag(read("agents/a.json", mixed)) ==
        "WS006 1:47 unknown field 'x' in agent; allowed: description, handoffs, model, name, prompt, skills, tools");
}

TEST_CASE("csharp: past the nesting limit in a tree that parses whole the references are still read",
          "[reader][csharp][fastpath]") {
  const std::string header = "// name: Deep\n// route: /deep\n// method: GET\n";
  ws::Definition d = read("endpoints/deep.cs", header + "var a = await Agents.Before.Run();\nvar deep = " +
                                                   std::string(300, '!') + "x;\nvar b = await Agents.After.Run();\n");
  CHECK(diags(d) == std::vector<std::string>{"WS016 5:263 nesting deeper than 256 levels"});
  REQUIRE(d.diagnostics.size() == 1);
  REQUIRE(d.diagnostics[0].notes.size() == 1);
  CHECK(d.diagnostics[0].notes[0].message ==
        "references in this file are read outside the parts that do not parse; some may be missing");
  CHECK(d.partly_read);
  CHECK(refs(d) == std::vector<std::string>{"agent Before @4:15-4:28", "agent After @6:15-6:27"});

  // Inside the node that passes the limit too.
  ws::Definition inside = read("endpoints/deep.cs", header + "var a = " + std::string(255, '(') +
                                                        "Agents.Inside.Run()" + std::string(255, ')') + ";\n");
  CHECK(diags(inside) == std::vector<std::string>{"WS016 4:260 nesting deeper than 256 levels"});
  CHECK(refs(inside) == std::vector<std::string>{"agent Inside @4:264-4:277"});
}
