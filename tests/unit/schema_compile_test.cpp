// compiled_schema keeps a thread's recent schemas by the address of the
// schema value: a different schema at the same address (a kind pack freed
// and another loaded in its place, or a value changed in place) must get
// its own compiled form, never the one remembered for that address.
#include <catch2/catch.hpp>

#include <variant>

#include "schema_compile.h"
#include "valijson_include.h"

namespace {

bool accepts(const nlohmann::json& schema, const nlohmann::json& doc) {
  ws::detail::CompiledSchema compiled = ws::detail::compiled_schema(schema);
  auto* s = std::get_if<std::shared_ptr<const valijson::Schema>>(&compiled);
  REQUIRE(s != nullptr);
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter target(doc);
  return validator.validate(**s, target, nullptr);
}

}  // namespace

TEST_CASE("compiled_schema: a new schema at a remembered address is compiled anew", "[schema_compile]") {
  nlohmann::json schema = {{"type", "object"}, {"required", {"a"}}};
  const nlohmann::json empty = nlohmann::json::object();
  CHECK_FALSE(accepts(schema, empty));
  CHECK_FALSE(accepts(schema, empty));  // remembered
  schema = {{"type", "object"}};       // same address, another schema
  CHECK(accepts(schema, empty));
  schema["required"] = {"a"};
  CHECK_FALSE(accepts(schema, empty));
  // Many schemas in turn: the thread's memory is bounded, each still right.
  for (int i = 0; i < 40; ++i) {
    nlohmann::json s = {{"type", "object"}, {"required", {"k" + std::to_string(i)}}};
    CHECK_FALSE(accepts(s, empty));
    CHECK(accepts(s, {{"k" + std::to_string(i), 1}}));
  }
  // An invalid schema stays a reason, whether remembered or not.
  nlohmann::json bad = {{"type", "object"}, {"properties", {{"x", {{"pattern", "("}}}}}};
  for (int i = 0; i < 2; ++i) CHECK(std::holds_alternative<std::string>(ws::detail::compiled_schema(bad)));
}
