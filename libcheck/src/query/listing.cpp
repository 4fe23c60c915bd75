#include "libcheck/listing.h"

#include <algorithm>

#include "libcheck/json_output.h"
#include "libcheck/path_policy.h"
#include "libcheck/path_route.h"
#include "libcheck/reader.h"
#include "parallel.h"

namespace ws {

namespace {

// Moves the entries with a refusal in `why` (one per entry) to the refused
// ones, kept in path order whatever rule refused each path.
void drop_refused(Listing& out, std::vector<std::optional<Error>>& why) {
  if (std::none_of(why.begin(), why.end(), [](const auto& w) { return w.has_value(); })) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < out.entries.size(); ++i) {
    if (why[i]) out.refused.push_back(std::move(*why[i]));
    else if (kept++ != i) out.entries[kept - 1] = std::move(out.entries[i]);
  }
  out.entries.resize(kept);
  std::stable_sort(out.refused.begin(), out.refused.end(),
                   [](const Error& a, const Error& b) { return a.subject < b.subject; });
}

// An error naming the known kinds when `options` asks for an unknown one.
std::optional<Error> unknown_kind(const Workspace& ws, const ListOptions& options) {
  for (const auto& k : options.kinds)
    if (!ws.kinds.by_name(k)) {
      std::string known;
      for (const auto& kind : ws.kinds.kinds()) known += (known.empty() ? "" : ", ") + kind.name;
      return make_error(Errc::usage, "unknown kind '" + k + "'; known kinds: " + known, k);
    }
  return std::nullopt;
}

// The read policy; a secret's name passes when secrets are asked for.
PathPolicy listing_policy(bool want_secrets) {
  PathPolicy p = read_policy();
  p.allow_secret_names = want_secrets;
  return p;
}

// What the listing holds of the entries before the per-file checks: the
// entries `options` selects, each routed, and the refusals by path.
class Selection {
 public:
  Selection(const Workspace& ws, const ListOptions& options)
      : ws_(ws),
        options_(options),
        spec_hit_(options.pathspecs.size(), false),
        want_secrets_(std::find(options.kinds.begin(), options.kinds.end(), "secret") != options.kinds.end()),
        paths_(listing_policy(want_secrets_)),
        router_(ws.kinds) {}

  void select(Listing& out) {
    // Nearly every entry is listed: one allocation rather than a doubling
    // vector's moves of every entry so far.
    if (!options_.changed_only && options_.pathspecs.empty() && options_.kinds.empty())
      out.entries.reserve(ws_.view.entries().size());
    for (const auto& e : ws_.view.entries()) {
      if (options_.changed_only ? e.status == ChangeStatus::unchanged : e.status == ChangeStatus::deleted) continue;
      if (!matches(e)) continue;
      add(e, out);
    }
    for (std::size_t i = 0; i < spec_hit_.size(); ++i)
      if (!spec_hit_[i]) out.unmatched_pathspecs.push_back(i);
  }

 private:
  // Whether a pathspec (or none) matches, marking each one that does.
  bool matches(const ViewEntry& e) {
    bool matched = options_.pathspecs.empty();
    for (std::size_t i = 0; i < options_.pathspecs.size(); ++i)
      if (pathspec_matches(options_.pathspecs[i], e.path)) matched = spec_hit_[i] = true;
    return matched;
  }

  // Entry `e` to the entries or the refusals; nowhere when the options leave it out.
  void add(const ViewEntry& e, Listing& out) {
    const Kind* kind = router_.route(e.path);
    // Secrets are listed by name, and only on request; another path holding
    // a secret's bytes is refused by path, like a link (secrets.h).
    const bool secret = ws_.view.is_secret(e);
    if (secret && e.status != ChangeStatus::deleted && ws_.view.holds_secret_bytes(e)) {
      out.refused.push_back(make_error(Errc::refused, secret_bytes_refusal(e.path), e.path, Rule::secret));
      return;
    }
    if ((is_secret_path(e.path) || (kind && kind->never_read)) && !want_secrets_) return;
    if (auto rej = paths_.check(e.path)) {
      if (rej->rule != PathRule::secret)
        out.refused.push_back(make_error(Errc::refused, rej->message(), e.path, to_rule(rej->rule)));
      return;
    }
    if (is_link_mode(e.mode)) {
      out.refused.push_back(link_refusal(e));
      return;
    }
    if (!options_.kinds.empty() &&
        (!kind || std::find(options_.kinds.begin(), options_.kinds.end(), kind->name) == options_.kinds.end()))
      return;
    ListedEntry le;
    le.entry = &e;
    le.kind = kind;
    le.config = !kind && is_workspace_config_path(e.path);
    le.not_definition = !kind && !le.config && is_not_definition(ws_.kinds, ws_.config, e.path);
    le.secret = secret || (kind && kind->never_read);  // never_read(), is_secret() known
    le.plain_path = paths_.last_plain();
    out.entries.push_back(std::move(le));
  }

  const Workspace& ws_;
  const ListOptions& options_;
  std::vector<bool> spec_hit_;
  const bool want_secrets_;
  // The view is in path order: the path checker and the router look at
  // each folder once, and still check every file's own name.
  PathChecker paths_;
  KindPack::Router router_;
};

// A working-tree file with several hard links is refused like a symlink,
// so the listing names what the other tools refuse to read, with or
// without -l. One stat per file (not an open), spread over the cores.
void drop_hard_links(const Workspace& ws, Listing& out) {
  if (ws.view.content().refuses_none()) return;
  std::vector<std::optional<Error>> why(out.entries.size());
  parallel_for(out.entries.size(), [&](std::size_t i) {
    const ListedEntry& le = out.entries[i];
    if (!le.secret) why[i] = ws.view.content().refusal(*le.entry);
  });
  drop_refused(out, why);
}

// Each entry's size and definition name (-l). A working-tree file found,
// once read, to hold a secret's bytes is refused like one the view knew to
// hold them: no name, no size.
void add_names(const Workspace& ws, Listing& out) {
  std::vector<std::optional<Error>> secret_bytes(out.entries.size());
  parallel_for(out.entries.size(), [&](std::size_t i) {
    ListedEntry& le = out.entries[i];
    const ViewEntry& e = *le.entry;
    if (le.secret) {
      // The name is the file name; a secret's size would describe its
      // content: not shown.
      if (le.kind && le.kind->never_read) le.name = read_definition(*le.kind, e.path, {}, ws.kinds).name;
      return;
    }
    le.size = ws.view.content().size_of(e);
    if (!le.kind) return;
    auto bytes = ws.view.read(e);
    if (!bytes && bytes.error().rule == Rule::secret) secret_bytes[i] = bytes.error();
    if (!bytes) return;
    if (!le.size) le.size = bytes->size();
    Definition d = read_definition(*le.kind, e.path, *bytes, ws.kinds);
    if (d.has_name) le.name = d.name;
  });
  drop_refused(out, secret_bytes);
}

}  // namespace

Result<Listing> list_view(const Workspace& ws, const ListOptions& options) {
  if (auto unknown = unknown_kind(ws, options)) return *unknown;
  Listing out;
  Selection(ws, options).select(out);
  drop_hard_links(ws, out);
  if (options.max && out.entries.size() > *options.max) {
    out.omitted = out.entries.size() - *options.max;
    out.entries.resize(*options.max);
  }
  if (options.want_names) add_names(ws, out);
  return out;
}

Error link_refusal(const ViewEntry& e) {
  return make_error(Errc::refused,
                    "refused path '" + e.path + "': " +
                        (e.mode == kModeLink ? "symlink (links are never followed; replace it with the file itself)"
                                             : "submodule (a workspace holds plain files only)"),
                    e.path, e.mode == kModeLink ? Rule::symlink : Rule::submodule);
}

std::string kind_label(const ListedEntry& e) {
  return e.kind ? e.kind->name : e.config ? "config" : e.not_definition ? "none" : "unrouted";
}

const char* status_word(ChangeStatus s) {
  switch (s) {
    case ChangeStatus::added: return "added";
    case ChangeStatus::modified: return "modified";
    case ChangeStatus::deleted: return "deleted";
    case ChangeStatus::renamed: return "renamed";
    default: return "unchanged";
  }
}

nlohmann::ordered_json listed_entry_json(const ListedEntry& le) {
  using nlohmann::ordered_json;
  auto j = json_record("entry");
  j["path"] = le.entry->path;
  j["kind"] = kind_label(le);
  j["name"] = le.name.empty() ? ordered_json() : ordered_json(le.name);
  j["status"] = status_word(le.entry->status);
  j["blob"] = le.secret || le.entry->blob_id.empty() ? ordered_json() : ordered_json(le.entry->blob_id.hex());
  j["size"] = le.size ? ordered_json(*le.size) : ordered_json();
  if (!le.entry->old_path.empty()) j["old_path"] = le.entry->old_path;
  return j;
}

nlohmann::ordered_json listing_truncated_json(std::size_t omitted, std::size_t max) {
  auto j = json_record("Listing-Truncated");
  j["omitted"] = omitted;
  j["max"] = max;
  return j;
}

}  // namespace ws
