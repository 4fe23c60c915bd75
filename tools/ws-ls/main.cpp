// ws-ls: list the definitions of a view (base + pending changes).
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/cli.h"
#include "common/tools.h"
#include "common/count_option.h"
#include "common/paths.h"
#include "libcheck/json_output.h"
#include "libcheck/listing.h"
#include "libcheck/terminal_text.h"

namespace {

constexpr const char* kTool = "ws-ls";

struct Options {
  wscli::CommonOptions common;
  wscli::ViewOptions view;
  bool long_format = false;
  bool changed = false;
  std::vector<std::string> kinds;
  std::optional<std::size_t> max;
  std::vector<std::string> pathspecs;
};

// JSON Lines, schemas/output/ws-ls.json (ws(7), JSON OUTPUT).
void print_json(const ws::Listing& listing, std::optional<std::size_t> max) {
  for (const auto& le : listing.entries) fmt::print("{}\n", ws::json_text(ws::listed_entry_json(le)));
  if (listing.omitted) fmt::print("{}\n", ws::json_text(ws::listing_truncated_json(listing.omitted, max.value_or(0))));
}

// Paths, kinds and names come from the workspace: on a line of their own they
// are shown with their control characters escaped (ws(7), TERMINAL OUTPUT);
// with -z, as the exact bytes a program reads.
void print_text(const ws::Listing& listing, const Options& o, const ws::PathPrefix& prefix) {
  char end = o.common.nul ? '\0' : '\n';
  // A view of `s` itself when it is clean (nearly always), so a listing of
  // 100,000 paths copies none of them.
  auto field = [&](const std::string& s, std::string& storage) -> std::string_view {
    if (o.common.nul) return s;
    return ws::terminal_safe(s, storage, ws::LineBreaks::escape);
  };
  // Human output names paths from the current folder, as git does; -z
  // output from the root (ws(7), PATHSPECS). A plain path (ListedEntry),
  // and so its '../'s and its tail from a folder, has nothing to escape.
  auto path_field = [&](const std::string& p, bool plain, std::string& storage,
                        std::string& rel) -> std::string_view {
    if (o.common.nul || prefix.folder.empty()) return plain ? std::string_view(p) : field(p, storage);
    rel = ws::path_from_prefix(p, prefix);
    return plain ? std::string_view(rel) : field(rel, storage);
  };
  std::string kind_buf, name_buf, path_buf, old_buf, path_rel, old_rel;
  std::size_t kind_w = 0, name_w = 0;
  if (o.long_format) {
    for (const auto& le : listing.entries) {
      kind_w = std::max(kind_w, field(ws::kind_label(le), kind_buf).size());
      name_w = std::max(name_w, le.name.empty() ? 1 : field(le.name, name_buf).size());
    }
  }
  // One buffer for the whole listing, written out in large pieces: a
  // print per line was a tenth of a listing (bench/DIAGNOSES.md, ls-view).
  fmt::memory_buffer out;
  auto flush_if_full = [&out] {
    if (out.size() < (std::size_t(1) << 16)) return;
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  };
  for (const auto& le : listing.entries) {
    const auto& e = *le.entry;
    std::string_view path = path_field(e.path, le.plain_path, path_buf, path_rel);
    flush_if_full();
    if (!o.long_format) {
      out.append(path);
      out.push_back(end);
      continue;
    }
    char st = e.status == ws::ChangeStatus::unchanged ? '-' : static_cast<char>(e.status);
    std::string kind = ws::kind_label(le);
    std::string_view name = le.name.empty() ? std::string_view("-") : field(le.name, name_buf);
    if (e.old_path.empty())
      fmt::format_to(std::back_inserter(out), "{} {:<{}} {:<{}} {}{}", st, field(kind, kind_buf), kind_w, name,
                     name_w, path, end);
    else
      fmt::format_to(std::back_inserter(out), "{} {:<{}} {:<{}} {} -> {}{}", st, field(kind, kind_buf), kind_w,
                     name, name_w, path_field(e.old_path, false, old_buf, old_rel), path, end);
  }
  if (listing.omitted)
    fmt::format_to(std::back_inserter(out), "Listing-Truncated: {} more {} (raise --max){}", listing.omitted,
                   listing.omitted == 1 ? "entry" : "entries", end);
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

int wstools::run_ls(int argc, char** argv) {
  Options o;
  wscli::App app{"List the definitions of the view: the base commit with the pending changes on top.", kTool};
  app.get_formatter()->column_width(30);
  wscli::add_common_options(app, o.common, /*with_z=*/true);
  wscli::add_view_options(app, o.view);
  app.add_flag("-l,--long", o.long_format, "show status, kind, name and path");
  app.add_flag("--changed", o.changed, "only changed definitions (deleted ones included)");
  app.add_option("--kind", o.kinds, "only definitions of KIND (repeatable); 'secret' lists secrets by name")
      ->type_name("KIND");
  wscli::add_count_option(app, "--max", o.max, "list at most N entries, then a Listing-Truncated record");
  app.add_option("pathspec", o.pathspecs, "paths, folders or globs, from the current folder (':/' for the root)")->type_name("PATHSPEC");
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;

  int code = 0;
  o.view.changes_only = o.changed;  // the unchanged base is not listed, so not walked
  auto workspace = wscli::open_or_report(kTool, o.common, o.view, code);
  if (!workspace) return code;
  const ws::PathPrefix prefix = wscli::path_prefix(*workspace, o.common);
  auto specs = wscli::parse_pathspecs_or_report(kTool, o.pathspecs, prefix, code);
  if (!specs) return code;

  ws::ListOptions lo;
  lo.kinds = o.kinds;
  lo.changed_only = o.changed;
  lo.pathspecs = ws::or_current_folder(std::move(*specs), prefix);
  lo.want_names = o.long_format || o.common.json;
  lo.max = o.max;
  auto listing = ws::list_view(*workspace, lo);
  if (!listing) return wscli::report_error(kTool, listing.error());

  if (o.common.json) print_json(*listing, o.max);
  else print_text(*listing, o, prefix);
  std::fflush(stdout);

  int exit = wscli::kExitOk;
  for (const auto& err : listing->refused) {
    wscli::print_error(kTool, err.message);
    exit = wscli::kExitFailed;
  }
  if (int unmatched = wscli::report_unmatched(kTool, lo.pathspecs, listing->unmatched_pathspecs)) exit = unmatched;
  wscli::exit_without_teardown(exit);
}
