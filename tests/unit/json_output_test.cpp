// The one writer of JSON output (libcheck/json_output.h): valid UTF-8 for
// any bytes, the exact bytes beside a text that is not UTF-8, and back.
#include <catch2/catch.hpp>

#include "libcheck/json_output.h"

using nlohmann::json;

TEST_CASE("json output: each byte that does not begin UTF-8 is one U+FFFD", "[json-output]") {
  const std::string r = "\xef\xbf\xbd";
  CHECK(ws::utf8_replaced("a\xff" "b") == "a" + r + "b");
  CHECK(ws::utf8_replaced("\xc3\x28") == r + "(");
  CHECK(ws::utf8_replaced("\xc0\xaf") == r + r);
  CHECK(ws::utf8_replaced("\xed\xa0\x80") == r + r + r);
  CHECK(ws::utf8_replaced("\xe2\x82") == r + r);  // truncated at the end
  CHECK(ws::utf8_replaced("caf\xc3\xa9 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xf0\x9f\x98\x80");
  CHECK(ws::is_valid_utf8("caf\xc3\xa9"));
  CHECK_FALSE(ws::is_valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
}

TEST_CASE("json output: base64 as RFC 4648 writes it, and only that is read back", "[json-output]") {
  // RFC 4648, section 10.
  const std::vector<std::pair<std::string, std::string>> vectors{
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"}, {std::string("\xff\x00\xfe", 3), "/wD+"}};
  for (const auto& [bytes, text] : vectors) {
    CHECK(ws::base64_encode(bytes) == text);
    CHECK(ws::base64_decode(text) == bytes);
  }
  for (const char* bad : {"Zg=", "Z===", "Zg=a", "Z!==", "=Zg=", "Zg==Zg=="}) CHECK_FALSE(ws::base64_decode(bad));
}

TEST_CASE("json output: a text that is not UTF-8 gets its bytes beside it and so does a list", "[json-output]") {
  const std::string path = "a/\xff.json";
  json j{{"type", "entry"}, {"path", path}, {"name", "ok"}, {"paths", {"fine", path}},
         {"nested", {{"text", "x\xc0\xafy"}}}, {"deep", {{{"t", "\xed\xa0\x80"}}}}};
  std::string text = ws::json_text(j);
  json back = json::parse(text);  // throws on invalid UTF-8
  CHECK(back["path"] == "a/\xef\xbf\xbd.json");
  CHECK(back["path_bytes"] == "YS//Lmpzb24=");
  CHECK_FALSE(back.contains("name_bytes"));
  CHECK(back["paths_bytes"] == json({nullptr, "YS//Lmpzb24="}));
  CHECK(back["nested"]["text_bytes"] == ws::base64_encode("x\xc0\xafy"));
  CHECK(back["deep"][0]["t_bytes"] == ws::base64_encode("\xed\xa0\x80"));
  CHECK(ws::json_text_member(back, "path") == path);
  CHECK(ws::json_text_member(back, "name") == "ok");
  CHECK(ws::json_text_list_member(back, "paths") == std::vector<std::string>{"fine", path});
  CHECK_FALSE(ws::json_text_member(back, "missing"));

  // A fixed format: replaced, nothing added.
  std::string fixed = ws::json_text(j, ws::JsonBytes::replaced_only);
  CHECK(fixed.find("_bytes") == std::string::npos);
  CHECK(json::parse(fixed)["path"] == "a/\xef\xbf\xbd.json");
}

TEST_CASE("json output: control characters are escaped as RFC 8259 asks", "[json-output]") {
  CHECK(ws::json_text(json{{"m", std::string("a\x1b[2J\x01\n\t\"\\\x7f", 11)}}) ==
        "{\"m\":\"a\\u001b[2J\\u0001\\n\\t\\\"\\\\\x7f\"}");
}
