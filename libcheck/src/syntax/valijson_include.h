// The one way libcheck includes valijson. Without VALIJSON_USE_EXCEPTIONS its
// errors print to stderr and abort(); with it they throw, and the schema code
// catches them at its boundary (a library never aborts on user input). Every
// translation unit that uses valijson must see the same setting: include
// valijson only through this header.
#pragma once

#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>
