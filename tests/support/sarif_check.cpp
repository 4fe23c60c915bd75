#include "support/sarif_check.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/temp_repo.h"

namespace wstest {

namespace {

const std::string kSchemaPath = WS_SHARED_DATA_DIR "/sarif-schema-2.1.0.json";

constexpr const char* kValidator = R"(
import json, sys, jsonschema
with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
with open(sys.argv[2], encoding="utf-8") as f:
    doc = json.load(f)
errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc), key=str)
for e in errors:
    print("/".join(str(p) for p in e.absolute_path), ":", e.message)
sys.exit(1 if errors else 0)
)";

}  // namespace

std::optional<RunResult> validate_sarif(const std::string& sarif) {
  if (!std::filesystem::exists(kSchemaPath)) {
    WARN("SKIPPED: SARIF schema not found at " << kSchemaPath << "; SARIF output not validated");
    return std::nullopt;
  }
  auto probe = run({"/usr/bin/python3", "-c", "import jsonschema"});
  if (probe.status != 0) {
    WARN("SKIPPED: /usr/bin/python3 with jsonschema (python3-jsonschema) not available: " << probe.err);
    return std::nullopt;
  }
  TempDir dir;
  const std::string path = dir.path() + "/log.sarif";
  std::ofstream(path, std::ios::binary) << sarif;
  return run({"/usr/bin/python3", "-c", kValidator, kSchemaPath, path});
}

}  // namespace wstest
