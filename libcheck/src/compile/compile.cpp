// The compile's first half: which entries are checked, path policy and
// routing, and reading every definition the build needs — changed files
// through their readers (in parallel), unchanged ones from the cache when it
// has them. check_symbols (compile_check.cpp) does the rest.
#include "libcheck/compile.h"

#include <algorithm>
#include <functional>
#include <memory>

#include "base_definitions.h"
#include "base_index.h"
#include "change_fields.h"
#include "change_impact.h"
#include "compile_internal.h"
#include "definition_cache.h"
#include "merge_findings.h"
#include "libcheck/path_policy.h"
#include "libcheck/path_route.h"
#include "libcheck/policy_change.h"
#include "libcheck/workspace_root.h"
#include "libcheck/reader.h"
#include "libcheck/repository.h"
#include "parallel.h"
#include "printable_path.h"
#include "progress_meter.h"
#include "rule_config.h"

namespace ws {

using compile_detail::BaseIndex;
using compile_detail::Item;
using compile_detail::RecordView;
using compile_detail::Side;

const char* tool_version() { return WS_VERSION; }

namespace {
// Raised whenever a reader's results change for some input (references,
// diagnostics, spans), so that no cache keeps the old results: 2, a
// declaration shadows a root in its scope only, and @, global:: and ?.
// chains are references; 3, references are read outside the parts of a
// file that do not parse; 4, nesting far past the limit is WS016 unparsed;
// 5, a note counts the syntax errors past the first five; 6, a record says
// whether its file was partly read (ws-build --stats); 7, fixed, switch-arm,
// join, into, method and event declarations shadow in their scope only;
// 8, a using directive naming a root is WS020; 9, inline suppressions are
// carried as WS022 (read/suppression_read.h).
constexpr int kReaderRevision = 9;
}  // namespace

const std::string& cache_version() {
  static const std::string version =
      std::string(WS_VERSION) + " (" + WS_GRAMMAR_VERSIONS + ") readers " + std::to_string(kReaderRevision);
  return version;
}

std::string definition_cache_file(const Repository& repo) {
  std::string dir = repo.common_dir();
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir + "ws/cache/definitions";
}

namespace {

// Index files kept under ws/cache/bases/: a few branches' worth.
constexpr std::size_t kKeptBaseIndexes = 4;

// A definition to read: one side of one item.
struct Job {
  enum class Source { view, blob } source = Source::view;
  std::size_t item = 0;
  bool base_side = false;
  bool cacheable = false;
  std::string_view record;      // in the build's arena
  std::string_view cache_blob;  // the id of the bytes actually read
  std::unique_ptr<Error> error;  // a pointer: 100,000 jobs, almost none failing
  bool parsed = false;
  bool cache_hit = false;  // a working-tree file whose bytes the cache already knew
  std::uint32_t use = 0;   // its place in the cache's use order (reserve_use)
  bool looked_up = false;  // the cache was asked for its bytes' id already (and missed)
};

// The policy a changeset's paths must pass: what may be written to the
// branch, except that a view may hold secrets (they are never read).
PathPolicy changeset_policy(const WorkspaceConfig& config) {
  PathPolicy p = write_policy(config.protected_paths);
  p.allow_secret_names = true;
  std::erase(p.protected_prefixes, std::string(".secrets/"));
  return p;
}

// The policy every path a view holds must pass to be read at all: the
// read policy, except that a view may hold secrets (they are never read).
PathPolicy view_read_policy() {
  PathPolicy p = read_policy();
  p.allow_secret_names = true;
  return p;
}

bool is_path_rule(Rule rule) {
  for (int r = 0; r <= static_cast<int>(PathRule::too_long); ++r)
    if (rule == to_rule(static_cast<PathRule>(r))) return true;
  return false;
}

// A refused read as a diagnostic; nullopt for trouble that is not the file's
// fault (I/O), which fails the build instead.
std::optional<Diagnostic> read_error_diag(const std::string& path, const Error& err) {
  const Rule rule = err.rule;
  if (rule == Rule::too_large) return make_file_diag(DiagCode::file_too_large, path, err.message);
  if (rule == Rule::symlink || rule == Rule::special_file || rule == Rule::hard_link || rule == Rule::mount_point ||
      rule == Rule::submodule)
    return make_file_diag(DiagCode::unreadable_file, path, err.message);
  if (is_path_rule(rule)) return make_file_diag(DiagCode::path_refused, path, err.message);
  return std::nullopt;
}

// WS005 for a file no kind reads (path_route.h): always an error in a
// kind's folder, as the "unrouted" setting says elsewhere, nothing for a
// file that is not a definition or that the config ignores.
std::optional<Diagnostic> unread_file_diag(const PathRoute& route, const std::string& path,
                                           const WorkspaceConfig& config) {
  std::string message;
  Severity severity = Severity::error;
  if (route.role == PathRole::misfit) {
    const Kind* k = route.kind;
    message = k ? "file does not fit kind '" + k->name + "': its files are " + k->dir + "*" + k->extension
                : "file is in no kind's folder, though its top-level folder holds kinds' folders";
  } else if (route.role == PathRole::unrouted && config.unrouted != UnroutedPolicy::ignore) {
    message = "file is in no kind's folder, so nothing reads it";
    if (config.unrouted == UnroutedPolicy::warning) severity = Severity::warning;
  } else {
    return std::nullopt;
  }
  Diagnostic d = make_file_diag(DiagCode::unrouted_file, path, std::move(message));
  d.severity = severity;
  return d;
}

// A file of a kind's folder whose name is not UTF-8 (KindPack::route).
std::string misnamed_refusal(const std::string& path) {
  return "refused path '" + detail::printable_path(path) +
         "': its name is not valid UTF-8, so no kind can read it; rename it in UTF-8";
}

void run_job(Job& job, const Item& item, const View& view, const KindPack& kinds,
             const WorkspaceConfig& config, compile_detail::ByteArena& arena, const DefinitionCache* cache) {
  const Side& side = job.base_side ? item.base : item.view;
  const ViewEntry& e = *item.entry;
  // Committed content comes from the object database, by the id it is
  // cached under, even where the view would read an unchanged file from the
  // working tree: the record is then a function of that blob by construction.
  const ObjectId& blob = job.base_side ? e.base_blob_id : e.blob_id;
  if (job.source == Job::Source::blob) {
    // The size from the object header first: a pushed gigabyte of zeros is
    // a few kilobytes compressed and must not be inflated to be refused.
    ViewEntry probe = e;
    if (job.base_side) probe.status = ChangeStatus::deleted;  // size_of() then looks at the base blob
    probe.from_worktree = false;
    auto size = view.content().size_of(probe);
    if (size && *size > config.size_cap) {
      job.error = std::make_unique<Error>(too_large_error(side.path, *size, config.size_cap));
      return;
    }
  }
  Result<std::string> bytes = job.source == Job::Source::view ? view.read(e) : view.content().read_blob(blob.hex());
  if (!bytes) {
    job.error = std::make_unique<Error>(bytes.error());
    return;
  }
  // Working-tree bytes the view could not vouch for are judged by what was
  // read: a secret's bytes under this path are refused, never parsed.
  if (job.source == Job::Source::view && view.bytes_are_secret(e, *bytes)) {
    job.error = std::make_unique<Error>(
        make_error(Errc::refused, secret_bytes_refusal(e.path), e.path, Rule::secret));
    return;
  }
  if (job.cacheable) {
    // A working-tree file may have changed since the view was made: key it
    // by the bytes actually read.
    if (job.source == Job::Source::blob) job.cache_blob = arena.store(blob.hex());
    else if ((e.from_worktree || e.blob_id.empty()) && !view.content().reads_blob_id(e))
      job.cache_blob = arena.store(Repository::hash_blob(*bytes));
    else job.cache_blob = arena.store(e.blob_id.hex());
    // An edit built before (the second build of one changeset, the build
    // inside ws-commit after ws-build) is parsed once, like the base.
    if (job.source == Job::Source::view && !job.looked_up) {
      if (auto rec = cache->peek(job.cache_blob, side.kind->name); rec && RecordView(*rec).valid()) {
        job.record = *rec;
        job.cache_hit = true;
        return;
      }
    }
  }
  job.record = arena.store(compile_detail::encode_record(read_definition(*side.kind, side.path, *bytes, kinds)));
  job.parsed = true;
}

// What reading a view's entries gives the checks.
struct Reading {
  std::vector<Item> items;
  std::vector<Diagnostic> diags;
  BuildResult result;  // summary counts so far and stats
  // The records' storage when there is no cache (else the cache's arena).
  std::unique_ptr<compile_detail::ByteArena> own_arena = std::make_unique<compile_detail::ByteArena>();
};

// Reads the entries of a view into items, in named steps (read_items() runs
// them): plan each entry's sides (refusals, routing, the cache, the base
// index, or a parse job), run the jobs in parallel, take their records, then
// add the records' own findings.
class ItemReader {
 public:
  ItemReader(const View& view, const KindPack& kinds, const WorkspaceConfig& config, const BuildOptions& options,
             DefinitionCache* cache, const BaseIndex* base)
      : view_(view), kinds_(kinds), config_(config), options_(options), cache_(cache), base_(base),
        policy_(changeset_policy(config)), view_policy_(view_read_policy()),
        // Records live in the cache's arena when there is a cache (it saves
        // them after this returns), else in one of this build's own.
        arena_(cache ? cache->arena() : *reading_.own_arena) {
    reading_.result.summary.all = options.all;
    reading_.items.reserve(base ? 16 : view.entries().size());
  }

  void plan_items() {
    for (const ViewEntry& e : view_.entries()) {
      if (base_ && e.status == ChangeStatus::unchanged) continue;
      plan_item(e);
    }
  }
  void run_jobs();
  Status take_records();
  void add_record_findings();
  Reading take() { return std::move(reading_); }

 private:
  void plan_item(const ViewEntry& e);
  void report_path_refusal(const Item& it);
  bool view_refuses(const ViewEntry& e) const;
  void report_unread(const ViewEntry& e, const PathRoute& route, bool link, bool secret_bytes);
  void plan_view_side(std::size_t i, bool report, bool link);
  void plan_base_side(std::size_t i);
  bool from_cache(Side& side, const ObjectId& blob);
  bool from_index(Side& side) const;
  void name_only(Side& side);
  void add_job(std::size_t i, bool base_side, Job::Source source, bool looked_up = false);
  Status take_record(Job& job);

  const View& view_;
  const KindPack& kinds_;
  const WorkspaceConfig& config_;
  const BuildOptions& options_;
  DefinitionCache* cache_;
  const BaseIndex* base_;
  const PathPolicy policy_;
  const PathPolicy view_policy_;
  Reading reading_;
  compile_detail::ByteArena& arena_;
  std::vector<Job> jobs_;
};

// An item for entry `e`: whether it is reported, the path findings, and
// how each side will be read.
void ItemReader::plan_item(const ViewEntry& e) {
  BuildSummary& summary = reading_.result.summary;
  const std::size_t i = reading_.items.size();
  Item& it = reading_.items.emplace_back();
  it.entry = &e;
  it.changed = e.status != ChangeStatus::unchanged;
  it.in_scope = any_pathspec_matches(options_.pathspecs, e.path) ||
                (!e.old_path.empty() && any_pathspec_matches(options_.pathspecs, e.old_path));
  bool deleted = e.status == ChangeStatus::deleted;
  bool report = it.in_scope && (it.changed || options_.all);
  if (it.changed && it.in_scope) ++summary.files_changed;

  if (report) report_path_refusal(it);
  const PathRoute route = deleted ? PathRoute{PathRole::unrouted, nullptr} : route_path(kinds_, config_, e.path);
  // The config a change proposes is never used by this build (the
  // base's is), but it must be one the tools can read once it lands.
  if (report && it.changed && !deleted && e.path == ".ws/config.json")
    if (auto d = proposed_config_diagnostic(view_, e)) reading_.diags.push_back(std::move(*d));
  const Kind* view_kind = route.role == PathRole::definition ? route.kind : nullptr;
  bool link = is_link_mode(e.mode);
  // Another path holding a secret's bytes (secrets.h) is never read, and
  // refused wherever it is: landing it would copy a secret out of
  // '.secrets/'.
  const bool secret_bytes = !deleted && !link && view_.holds_secret_bytes(e);
  if (report) report_unread(e, route, link, secret_bytes);

  if (view_kind && !view_refuses(e) && !secret_bytes) {
    it.view.kind = view_kind;
    it.view.path = e.path;
    plan_view_side(i, report, link);
  }
  if (it.changed && e.status != ChangeStatus::added && !(deleted && link)) plan_base_side(i);
}

// A changed path must be one the branch may take (the write policy: no
// protected path); an unchanged one only one a view may hold. A protected
// path is still read, so the overlay stays right and the refusal is the one
// finding.
void ItemReader::report_path_refusal(const Item& it) {
  const ViewEntry& e = *it.entry;
  for (const std::string* p : {&e.path, &e.old_path}) {
    if (p->empty()) continue;
    if (auto rej = check_path(*p, it.changed ? policy_ : view_policy_)) {
      reading_.diags.push_back(make_file_diag(DiagCode::path_refused, e.path, rej->message()));
      break;
    }
  }
}

// A path the view policy refuses is not read at all.
bool ItemReader::view_refuses(const ViewEntry& e) const {
  bool refused = false;
  for (const std::string* p : {&e.path, &e.old_path})
    if (!p->empty() && check_path(*p, view_policy_)) refused = true;
  return refused;
}

// Why a reported file is not read, if it is not: a link or submodule is
// refused wherever it is — in a kind's folder or not, under .ws/ or not,
// whatever the unrouted policy — because nothing downstream (ws-commit,
// ws-apply) would take it; then a secret's bytes, a misnamed file, and a
// file no kind reads.
void ItemReader::report_unread(const ViewEntry& e, const PathRoute& route, bool link, bool secret_bytes) {
  std::vector<Diagnostic>& diags = reading_.diags;
  bool deleted = e.status == ChangeStatus::deleted;
  const Kind* view_kind = route.role == PathRole::definition ? route.kind : nullptr;
  if (!deleted && link)
    diags.push_back(make_file_diag(
        DiagCode::unreadable_file, e.path,
        e.mode == kModeLink ? "refused to read '" + e.path + "': symlink (links are never followed)"
                            : "refused to read '" + e.path + "': submodule (a workspace holds plain files only)"));
  else if (secret_bytes)
    diags.push_back(make_file_diag(DiagCode::path_refused, e.path, secret_bytes_refusal(e.path)));
  else if (route.role == PathRole::misnamed)
    diags.push_back(make_file_diag(DiagCode::path_refused, e.path, misnamed_refusal(e.path)));
  else if (!deleted && !view_kind)
    if (auto d = unread_file_diag(route, e.path, config_)) diags.push_back(std::move(*d));
}

// The view side of item i, whose kind and path are set: counted when
// reported, then read by name only, from the cache, or by a job.
void ItemReader::plan_view_side(std::size_t i, bool report, bool link) {
  BuildSummary& summary = reading_.result.summary;
  Item& it = reading_.items[i];
  const ViewEntry& e = *it.entry;
  it.checked = report;
  if (report) ++summary.files_checked;
  if (report && options_.list_checked) summary.checked.push_back(e.path);
  if (link) {
    // Reported above; never read, so not in the overlay.
  } else if (is_secret_path(e.path) || it.view.kind->never_read) {
    name_only(it.view);
  } else if (it.changed) {
    // Committed or staged bytes have their id already, and so has a
    // working-tree file whose bytes the view kept when it hashed them;
    // any other working-tree file is hashed when read (run_job).
    bool known_id = !e.blob_id.empty() && (!e.from_worktree || view_.content().reads_blob_id(e));
    if (!known_id) add_job(i, false, Job::Source::view);
    else if (!from_cache(it.view, e.blob_id)) add_job(i, false, Job::Source::view, /*looked_up=*/true);
  } else if (!from_cache(it.view, e.blob_id)) {
    add_job(i, false, Job::Source::blob);
  }
}

// The base side of changed item i: from the base index, by name only,
// from the cache, or by a job.
void ItemReader::plan_base_side(std::size_t i) {
  Item& it = reading_.items[i];
  const ViewEntry& e = *it.entry;
  std::string_view base_path = e.old_path.empty() ? e.path : e.old_path;
  const Kind* base_kind = is_workspace_config_path(base_path) ? nullptr : kinds_.route(base_path);
  // A base side holding a secret's bytes under another path is not read
  // either: the change is checked as if it added the file.
  if (!base_kind || !(is_secret_path(base_path) || !view_.base_is_secret(e))) return;
  it.base.kind = base_kind;
  it.base.path = base_path;
  if (from_index(it.base)) {
    // Counted with the index's definitions (build()).
  } else if (is_secret_path(base_path) || base_kind->never_read) {
    name_only(it.base);
  } else if (!from_cache(it.base, e.base_blob_id)) {
    add_job(i, true, Job::Source::blob);
  }
}

bool ItemReader::from_cache(Side& side, const ObjectId& blob) {
  if (!cache_ || blob.empty()) return false;
  const auto hex = blob.hex_digits();
  auto rec = cache_->find(std::string_view(hex.data(), hex.size()), side.kind->name);
  if (!rec) {
    ++reading_.result.stats.cache_misses;
    return false;
  }
  RecordView rv(*rec);
  if (!rv.valid()) {
    ++reading_.result.stats.cache_misses;
    return false;
  }
  ++reading_.result.stats.cache_hits;
  side.rec = rv;
  side.present = true;
  return true;
}

// The base side of a changed item, from the index when it has the path.
bool ItemReader::from_index(Side& side) const {
  if (!base_) return false;
  auto d = base_->find_path(side.path);
  if (!d) return false;
  auto b = base_->def(*d);
  if (!b || b->kind != side.kind || !b->rec.valid()) return false;
  side.rec = b->rec;
  side.present = true;
  return true;
}

// Secrets: the name is the file name; the content is never opened. Read
// here rather than by a parse job: it costs nothing, and a warm build
// whose only jobs were secrets started a thread for them.
void ItemReader::name_only(Side& side) {
  side.rec = RecordView(arena_.store(compile_detail::encode_record(read_definition(*side.kind, side.path, {}, kinds_))));
  side.present = side.rec.valid();
}

void ItemReader::add_job(std::size_t i, bool base_side, Job::Source source, bool looked_up) {
  Job j;
  j.looked_up = looked_up;
  j.item = i;
  j.base_side = base_side;
  j.source = source;
  j.cacheable = cache_ != nullptr;
  if (j.cacheable) j.use = cache_->reserve_use();
  jobs_.push_back(std::move(j));
}

// Every job counts, parsed, found in the cache or refused: the count is of
// files dealt with, and it must reach the total.
void ItemReader::run_jobs() {
  std::vector<Item>& items = reading_.items;
  ProgressMeter progress(options_.progress, jobs_.size());
  progress.start();
  if (cache_ && std::any_of(jobs_.begin(), jobs_.end(), [](const Job& j) {
        return j.cacheable && j.source == Job::Source::view && !j.looked_up;
      }))
    cache_->prepare_peek();
  parallel_for(jobs_.size(), [&](std::size_t j) {
    // Nothing may escape a worker thread (that would terminate the
    // process); running out of memory on one file fails the build instead.
    try {
      run_job(jobs_[j], items[jobs_[j].item], view_, kinds_, config_, arena_, cache_);
    } catch (const std::exception& ex) {
      const Item& it = items[jobs_[j].item];
      jobs_[j].error = std::make_unique<Error>(make_error(
          Errc::environment, "cannot check '" + it.entry->path + "': " + ex.what(), it.entry->path));
    }
    progress.tick();
  });
}

// The jobs' records into their sides, in job order; an unchanged item's
// base side is its view side.
Status ItemReader::take_records() {
  for (auto& job : jobs_)
    if (auto taken = take_record(job); !taken) return taken.error();
  for (auto& it : reading_.items)
    if (!it.changed) it.base = it.view;
  return Ok{};
}

Status ItemReader::take_record(Job& job) {
  BuildResult& result = reading_.result;
  Item& it = reading_.items[job.item];
  Side& side = job.base_side ? it.base : it.view;
  if (job.parsed) ++result.stats.parsed;
  if (job.cache_hit) {
    ++result.stats.cache_hits;
    cache_->find(job.cache_blob, side.kind->name, job.use);  // marks it used, so it is kept
    side.rec = RecordView(job.record);
    side.present = true;
    return Ok{};
  }
  // A working-tree file is looked up by its bytes in run_job; others were
  // counted by from_cache.
  if (job.cacheable && job.source == Job::Source::view && !job.looked_up &&
      (it.entry->from_worktree || it.entry->blob_id.empty()))
    ++result.stats.cache_misses;
  if (job.error) {
    // An oversize base file is the base's own trouble, not this changeset's.
    if (job.base_side && job.error->rule == Rule::too_large) return Ok{};
    if (job.base_side) return *job.error;
    auto d = read_error_diag(it.entry->path, *job.error);
    if (!d) return *job.error;
    if (it.checked) reading_.diags.push_back(std::move(*d));
    return Ok{};
  }
  if (job.cacheable && !job.cache_blob.empty()) cache_->insert(job.cache_blob, side.kind->name, job.record, job.use);
  side.rec = RecordView(job.record);
  side.present = side.rec.valid();
  return Ok{};
}

// What the readers found in each checked file, and how many were partly read.
void ItemReader::add_record_findings() {
  std::vector<Diagnostic>& diags = reading_.diags;
  for (const auto& it : reading_.items) {
    if (it.checked && it.view.present && it.view.rec.partly_read()) ++reading_.result.stats.partly_read;
    if (it.checked && it.view.present && it.view.rec.has_diagnostics()) {
      auto per_file = it.view.rec.diagnostics(it.entry->path);
      diags.insert(diags.end(), std::make_move_iterator(per_file.begin()),
                   std::make_move_iterator(per_file.end()));
    }
  }
}

// Reads the entries of `view` into items: every entry, or with `base` (an
// index of the view's base commit) the changed ones only, their base sides
// taken from it where it has them.
Result<Reading> read_items(const View& view, const KindPack& kinds, const WorkspaceConfig& config,
                           const BuildOptions& options, DefinitionCache* cache, const BaseIndex* base) {
  ItemReader reader(view, kinds, config, options, cache, base);
  reader.plan_items();
  reader.run_jobs();
  if (auto taken = reader.take_records(); !taken) return taken.error();
  reader.add_record_findings();
  return reader.take();
}

BuildResult finish(Reading& reading, const WorkspaceConfig& config) {
  // The base config's rules and the inline suppressions (ws(7), RULES).
  compile_detail::apply_rules(config.rules, reading.diags);
  std::sort(reading.diags.begin(), reading.diags.end(), diag_less);
  BuildResult result = std::move(reading.result);
  result.summary = tally(reading.diags, result.summary);
  result.diagnostics = std::move(reading.diags);
  return result;
}

// What DefinitionChange::fields says of an item of a build of `view`; none
// when the build was not asked for them.
std::function<std::vector<std::string>(const Item&)> changed_fields_of(const View& view, const WorkspaceConfig& config,
                                                                       const BuildOptions& options) {
  if (!options.impact_fields) return {};
  return [&view, &config](const Item& it) { return compile_detail::item_changed_fields(view, config, it); };
}

// The whole view read, the unchanged items standing in for the base;
// `then`, when given, has the items before they go (and may let them go).
Result<BuildResult> compile_whole(const View& view, const KindPack& kinds, const WorkspaceConfig& config,
                                  const BuildOptions& options, DefinitionCache* cache,
                                  const std::function<void(std::vector<Item>&, BuildResult&)>& then = {}) {
  auto reading = read_items(view, kinds, config, options, cache, nullptr);
  if (!reading) return reading.error();
  {
    compile_detail::UnchangedItems unchanged(kinds, reading->items, [](const Item& it) { return !it.changed; });
    compile_detail::check_symbols(kinds, reading->items, unchanged, false, options.all, reading->diags);
    if (options.impact)
      *options.impact = compile_detail::change_impact(kinds, reading->items, unchanged, false, options.impact_limits,
                                                      changed_fields_of(view, config, options),
                                                      options.impact_referrers);
  }
  BuildResult result = finish(*reading, config);
  if (then) then(reading->items, result);
  return result;
}

// The changed entries read, against an index of the base; nullopt when the
// index turned out damaged.
Result<std::optional<BuildResult>> compile_on(const View& view, const KindPack& kinds, const WorkspaceConfig& config,
                                              const BuildOptions& options, DefinitionCache* cache,
                                              const BaseIndex& base) {
  auto reading = read_items(view, kinds, config, options, cache, &base);
  if (!reading) return reading.error();
  compile_detail::check_symbols(kinds, reading->items, base, true, options.all, reading->diags);
  if (options.impact)
    *options.impact = compile_detail::change_impact(kinds, reading->items, base, true, options.impact_limits,
                                                    changed_fields_of(view, config, options), options.impact_referrers);
  if (base.damaged()) return std::optional<BuildResult>();
  return std::optional<BuildResult>(finish(*reading, config));
}

// What the base commit holds at each path of a whole view's items that an
// unchanged entry would add to the overlay: the view side of an unchanged
// item, and the base side of a changed one where the rules of an unchanged
// entry let it in (a path the read policy takes, a file, not a link or a
// submodule: a modified entry's base mode is the commit's own). Sorted by
// path, as the index keeps them.
Result<std::vector<BaseIndex::Entry>> base_entries(const Workspace& ws, const std::vector<Item>& items) {
  const PathPolicy policy = view_read_policy();
  std::vector<BaseIndex::Entry> out;
  out.reserve(items.size());
  bool sorted = true;
  for (const Item& it : items) {
    const Side& side = it.changed ? it.base : it.view;
    if (!side.present || !side.kind) continue;
    if (it.changed) {
      const ViewEntry& e = *it.entry;
      if (check_path(side.path, policy)) continue;
      std::uint32_t mode = e.mode;
      if (e.status == ChangeStatus::modified) {
        auto at = ws.repo->entry_at(ws.view.base_commit(), std::string(side.path));
        if (!at) return at.error();
        if (!*at) continue;
        mode = (*at)->mode;
      }
      if (is_link_mode(mode)) continue;
    }
    if (!out.empty() && out.back().path >= side.path) sorted = false;
    out.push_back(BaseIndex::Entry{side.path, side.kind, side.rec});
  }
  // A rename's base side sits at its old path.
  if (!sorted)
    std::sort(out.begin(), out.end(), [](const BaseIndex::Entry& a, const BaseIndex::Entry& b) { return a.path < b.path; });
  return out;
}

// With the index of the view's base commit when there is a saved one, made
// beside a definition cache that loaded (a cache found damaged or from
// another version throws out both); else the whole view, and then the
// index is made and saved for the next build on that base.
Result<BuildResult> build_with_cache(const Workspace& ws, const BuildOptions& options, DefinitionCache& cache,
                                     bool cache_loaded, std::size_t& view_size) {
  view_size = ws.view.entries().size();
  // Every entry of the view, for the reads below that need them all.
  std::optional<View> opened;
  auto whole = [&]() -> Result<const View*> {
    if (!ws.view_spec.changes_only) return &ws.view;
    auto v = whole_view(ws);
    if (!v) return v.error();
    opened.emplace(std::move(v).value());
    view_size = opened->entries().size();
    return &*opened;
  };
  // --all reads every definition anyway; an unborn branch has no base.
  if (options.all || ws.view.base_commit().empty()) {
    auto view = whole();
    if (!view) return view.error();
    return compile_whole(**view, ws.kinds, ws.config, options, &cache);
  }
  BaseIndex::Key key = compile_detail::base_index_key(ws);
  std::string file = compile_detail::base_index_file(ws.repo->common_dir(), key.base_commit);
  if (cache_loaded) {
    BaseIndex index;
    if (index.load(file, key, ws.kinds).state == BaseIndex::LoadState::loaded) {
      auto result = compile_on(ws.view, ws.kinds, ws.config, options, &cache, index);
      if (!result) return result.error();
      if (*result) {
        (*result)->stats.cache_hits += index.read_count();
        (*result)->stats.base = BuildStats::Base::indexed;
        if (ws.view_spec.changes_only) view_size += index.size();
        return std::move(**result);
      }
    }
  }
  auto view = whole();
  if (!view) return view.error();
  // The index is made from this build's own items, before they go. Making
  // it only spares later builds work: trouble with it is the cache's, not
  // this build's.
  return compile_whole(**view, ws.kinds, ws.config, options, &cache,
                       [&](std::vector<Item>& items, BuildResult& result) {
                         auto entries = base_entries(ws, items);
                         // The entries point into the view and the cache, not
                         // the items: their memory serves the index's tables.
                         std::vector<Item>().swap(items);
                         Status saved = entries ? BaseIndex::write(file, ws.kinds, *entries, key)
                                                : Status(entries.error());
                         if (!saved) result.stats.cache_error = saved.error().message;
                         else compile_detail::prune_base_indexes(file, kKeptBaseIndexes);
                       });
}

}  // namespace

Result<BuildResult> compile_view(const View& view, const KindPack& kinds, const WorkspaceConfig& config,
                                 const BuildOptions& options, DefinitionCache* cache) {
  return compile_whole(view, kinds, config, options, cache);
}

namespace {

Result<BuildResult> build_view(const Workspace& ws, const BuildOptions& options) {
  if (!options.use_cache || !ws.repo) {
    if (!ws.view_spec.changes_only || !ws.repo) return compile_view(ws.view, ws.kinds, ws.config, options, nullptr);
    auto view = whole_view(ws);
    if (!view) return view.error();
    return compile_view(*view, ws.kinds, ws.config, options, nullptr);
  }
  std::string file = definition_cache_file(*ws.repo);
  std::unique_ptr<DefinitionCache> owned;
  DefinitionCache::LoadResult loaded;
  if (ws.cache_prefetch && ws.cache_prefetch->file == file && !ws.cache_prefetch->taken.exchange(true)) {
    CachePrefetch::Loaded pre = ws.cache_prefetch->loaded.get();
    if (pre.cache) {
      owned = std::move(pre.cache);
      loaded = owned->adopt(pre.result, ws.kinds.digest());
    }
  }
  if (!owned) {
    owned = std::make_unique<DefinitionCache>(cache_version(), ws.kinds.digest());
    loaded = owned->load(file);
  }
  DefinitionCache& cache = *owned;
  std::size_t view_size = 0;
  auto result = build_with_cache(ws, options, cache, loaded.state == DefinitionCache::LoadState::loaded, view_size);
  if (!result) return result;
  result->stats.cache_rebuilt = loaded.state == DefinitionCache::LoadState::rejected;
  if (cache.dirty() && options.save_cache) {
    // Room for the whole view twice over: entries of other branches and
    // sessions survive until the file outgrows that.
    auto saved = cache.save(file, 2 * view_size + 256);
    if (!saved) result->stats.cache_error = saved.error().message;
  }
  return result;
}

}  // namespace

namespace {

Result<BuildResult> build_changeset(const Workspace& ws, const BuildOptions& options) {
  // A change to the kinds or the config may break any definition, changed
  // or not: it is checked as --all (ws-build(1)).
  std::string reason = options.all ? std::string() : every_definition_reason(ws.view);
  if (reason.empty()) return build_view(ws, options);
  BuildOptions all = options;
  all.all = true;
  auto result = build_view(ws, all);
  if (result) result->summary.all_reason = std::move(reason);
  return result;
}

}  // namespace

Result<BuildResult> build(const Workspace& ws, const BuildOptions& options) {
  auto result = build_changeset(ws, options);
  if (!result) return result;
  if (auto st = add_merge_findings(ws, *result); !st) return st.error();
  return result;
}

}  // namespace ws
