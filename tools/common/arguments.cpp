#include "common/arguments.h"

#include <fmt/core.h>

#include "libcheck/closest_name.h"

namespace wscli {

namespace {

// CLI11 names a flag with a value for when it is bare "--base{HEAD}"; the
// help says "--base [=REV]" (the type name) instead.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override {
    std::string name = CLI::Formatter::make_option_name(opt, is_positional);
    for (auto open = name.find('{'); open != std::string::npos; open = name.find('{', open)) {
      auto close = name.find('}', open);
      if (close == std::string::npos) break;
      name.erase(open, close + 1 - open);
    }
    return name;
  }
};

}  // namespace

App::App(std::string description, std::string name) : CLI::App(std::move(description), std::move(name)) {
  formatter(std::make_shared<HelpFormatter>());
}

App::Leftovers App::leftovers() const {
  Leftovers out;
  for (const auto& [kind, arg] : missing_) {
    switch (kind) {
      case CLI::detail::Classifier::POSITIONAL_MARK: break;  // the "--" itself
      case CLI::detail::Classifier::NONE: out.positionals.push_back(arg); break;
      default: out.unknown_options.push_back(arg); break;
    }
  }
  return out;
}

namespace {

// The positional options of `app`, in the order they were added.
std::vector<CLI::Option*> positional_options(CLI::App& app) {
  std::vector<CLI::Option*> out;
  for (CLI::Option* opt : app.get_options())
    if (opt->get_positional()) out.push_back(opt);
  return out;
}

// Every long name of `app`, dashes included, for the suggestion.
std::vector<std::string> long_names(CLI::App& app) {
  std::vector<std::string> out;
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    for (const auto& l : opt->get_lnames()) out.push_back("--" + l);
  }
  return out;
}

ws::Error unknown_option(CLI::App& app, const std::string& arg) {
  std::string name = arg.substr(0, arg.find('='));
  std::string tool = app.get_name();
  std::optional<std::string> near;
  if (name.rfind("--", 0) == 0) near = ws::closest_name(name, long_names(app));
  if (near)
    return ws::make_error(ws::Errc::usage, fmt::format("unknown option '{}'; did you mean '{}'?", name, *near), name);
  return ws::make_error(ws::Errc::usage, fmt::format("unknown option '{}'; see '{} --help'", name, tool), name);
}

// Gives `extra` to the last positional option when it takes more than one
// value: its results become the value it took and `extra`, each as written.
ws::Status take_positionals(CLI::App& app, const std::vector<std::string>& extra) {
  if (extra.empty()) return ws::Ok{};
  auto positionals = positional_options(app);
  CLI::Option* last = positionals.empty() ? nullptr : positionals.back();
  if (!last || last->get_items_expected_max() <= 1)
    return ws::make_error(ws::Errc::usage,
                          fmt::format("unexpected argument '{}'; see '{} --help'", extra.front(), app.get_name()),
                          extra.front());
  std::vector<std::string> values = last->results();
  values.insert(values.end(), extra.begin(), extra.end());
  last->clear();
  for (auto& v : values) last->add_result(v);
  try {
    last->run_callback();
  } catch (const CLI::ParseError& e) {
    return ws::make_error(ws::Errc::usage, e.what());
  }
  return ws::Ok{};
}

}  // namespace

void prepare_exact_arguments(App& app) {
  // CLI11 reads "[a,b]" as a list, and lets a list option run on over the
  // following arguments, only when an option allows extra arguments: none
  // does, so a positional option takes its first value here and the rest
  // are left over, given to it as written by settle_arguments().
  for (CLI::Option* opt : app.get_options()) opt->allow_extra_args(false);
  app.allow_extras(true);
}

ws::Status settle_arguments(App& app) {
  App::Leftovers left = app.leftovers();
  if (!left.unknown_options.empty()) return unknown_option(app, left.unknown_options.front());
  return take_positionals(app, left.positionals);
}

}  // namespace wscli
