// ws-bench-gen: writes a deterministic, realistic workspace for the benchmarks
// (issue 7), and a changeset of K files on top of it.
//
//   ws-bench-gen [--seed S] [--definitions N] [--changeset K] OUT_DIR
//       writes the N definitions (files only) into OUT_DIR, and the changeset
//       into OUT_DIR.changes/: files/<path> for every added or modified file,
//       `deleted` (one path a line), `paths` (every changed path) and
//       `summary` (what the changeset does).
//   ws-bench-gen ... --apply-changeset OUT_DIR
//       writes the changeset into OUT_DIR itself (over a committed base made
//       with the same seed, N and K): modified and added files are written,
//       deleted ones removed.
//
// The generator only writes files; bench/run makes the git repository.
//
// What is generated follows the default kind pack (schemas/kinds) and is
// valid under it: every reference names a definition of the right kind,
// every `N.Type.Field` a field of that node type, names are unique per kind,
// and every file passes its schema; `ws-build --all` is clean on the base and
// `ws-build` is clean on the changeset. Sizes follow a real workspace: C#
// bodies of 1-4 KB, JSON of 0.5-2 KB, Markdown prompts of 0.5-3 KB.
//
// The changeset touches names that others reference: one agent renamed with
// every file that references it updated, one unreferenced definition
// deleted, fields added to node types and used by a modified endpoint and a
// modified index, and new definitions that reference existing names (the
// renamed agent by its new name among them).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// ---------------------------------------------------------------------------
// Randomness.
//
// std::mt19937_64 is specified bit for bit by the C++ standard, but the
// <random> distributions (std::uniform_int_distribution,
// std::uniform_real_distribution, ...) are not: libstdc++, libc++ and MSVC map
// the same engine output to different numbers. So only raw 64-bit words are
// taken from the engine, and ranges are drawn by hand below; a seed then gives
// the same workspace byte for byte with every standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, n), by rejection: no modulo bias.
  std::uint64_t below(std::uint64_t n) {
    if (n <= 1) return 0;
    std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;) {
      std::uint64_t x = engine_();
      if (x >= threshold) return x % n;
    }
  }
  // Uniform in [lo, hi].
  int range(int lo, int hi) { return lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo) + 1)); }
  // Uniform in [0, 1), 53 bits; IEEE arithmetic is exact here, so portable.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  bool chance(int percent) { return static_cast<int>(below(100)) < percent; }
  // Skewed towards low indices (density ~ 1/sqrt(x)): a few popular targets,
  // a long tail of rarely referenced ones, as in a real reference graph.
  int skewed(int n) {
    double u = unit();
    int i = static_cast<int>(u * u * n);
    return i < n ? i : n - 1;
  }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  std::mt19937_64 engine_;
};

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// ---------------------------------------------------------------------------
// Vocabulary.

const std::vector<std::string> kProse = {
    "customer", "ticket",  "invoice",  "refund",   "order",     "shipment", "account",  "payment",  "request",
    "queue",    "agent",   "reply",    "summary",  "priority",  "billing",  "support",  "contract", "renewal",
    "warranty", "claim",   "message",  "thread",   "owner",     "team",     "region",   "status",   "deadline",
    "review",   "policy",  "discount", "product",  "catalog",   "supplier", "delivery", "address",  "report",
    "the",      "a",       "every",    "each",     "when",      "if",       "then",     "before",   "after",
    "with",     "without", "from",     "into",     "for",       "of",       "to",       "and",      "or",
    "is",       "are",     "was",      "must",     "should",    "may",      "never",    "always",   "only",
    "first",    "next",    "last",     "new",      "open",      "closed",   "pending",  "late",     "urgent",
    "small",    "large",   "daily",    "weekly",   "monthly",   "reads",    "writes",   "checks",   "sends",
    "routes",   "updates", "creates",  "removes",  "escalates", "assigns",  "answers",  "collects", "merges",
    "tags",     "flags",   "counts",   "groups",   "sorts",     "finds",    "keeps",    "returns",  "explains",
    "politely", "quickly", "clearly",  "briefly",  "carefully", "once",     "twice",    "again",    "still",
    "within",   "hours",   "days",     "minutes",  "notes",     "history",  "context",  "language", "tone",
    "evidence", "amount",  "currency", "tax",      "balance",   "credit",   "debit",    "limit",    "risk",
    "fraud",    "score",   "model",    "answer",   "question",  "draft",    "approval", "manager",  "escalation"};

const std::vector<std::string> kNouns = {
    "Ticket",   "Customer", "Invoice",  "Refund",   "Order",    "Shipment", "Account",  "Payment", "Queue",
    "Reply",    "Summary",  "Contract", "Renewal",  "Warranty", "Claim",    "Message",  "Thread",  "Team",
    "Region",   "Review",   "Policy",   "Discount", "Product",  "Catalog",  "Supplier", "Delivery", "Address",
    "Report",   "Lead",     "Campaign", "Survey",   "Incident", "Asset",    "License",  "Quote",    "Booking",
    "Employee", "Project",  "Task",     "Document", "Vendor",   "Budget",   "Risk",     "Audit",    "Session",
    "Device",   "Location", "Subscription"};

const std::vector<std::string> kVerbs = {
    "Triage",  "Route",    "Lookup",  "Escalate", "Summarize", "Notify",  "Approve", "Reject",  "Assign",
    "Merge",   "Classify", "Score",   "Sync",     "Export",    "Import",  "Archive", "Refresh", "Validate",
    "Draft",   "Review",   "Match",   "Resolve",  "Close",     "Reopen",  "Tag",     "Forecast", "Audit",
    "Collect", "Enrich",   "Dedupe",  "Translate", "Publish",  "Schedule", "Remind", "Track",   "Bill"};

const std::vector<std::string> kFieldNames = {
    "Title",     "Status",     "Priority",  "Owner",     "CreatedAt",  "UpdatedAt",  "ClosedAt",   "Amount",
    "Currency",  "Email",      "Phone",     "Region",    "Score",      "Tags",       "Notes",      "Channel",
    "Source",    "Language",   "Country",   "City",      "Street",     "PostalCode", "DueAt",      "OpenedAt",
    "Assignee",  "Team",       "Category",  "Severity",  "Reference",  "External",   "Version",    "Revision",
    "Quantity",  "UnitPrice",  "Discount",  "TaxRate",   "Total",      "Balance",    "Limit",      "RiskScore",
    "Sentiment", "Summary",    "Body",      "Subject",   "Sender",     "Recipient",  "Attachments", "Locale",
    "TimeZone",  "StartsAt",   "EndsAt",    "Duration",  "Active",     "Archived",   "Verified",   "Source2",
    "Latitude",  "Longitude",  "Rating",    "Payload"};

const std::vector<std::string> kFieldTypes = {"string", "int", "float", "bool", "time", "json"};
const std::vector<std::string> kMethods = {"GET", "POST", "PUT", "PATCH", "DELETE"};
const std::vector<std::string> kModels = {"small", "medium", "large", "reasoning"};

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string sentence(Rng& r, int min_words = 6, int max_words = 16) {
  int n = r.range(min_words, max_words);
  std::string s;
  for (int i = 0; i < n; ++i) {
    std::string w = r.pick(kProse);
    if (i == 0) w[0] = static_cast<char>(w[0] - 'a' + 'A');
    if (i) s += (r.chance(8) ? ", " : " ");
    s += w;
  }
  return s + ".";
}

std::string sentences(Rng& r, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? " " : "") + sentence(r);
  return s;
}

// ---------------------------------------------------------------------------
// The model: definitions by kind, with references as indices so that a
// rename re-renders every referrer with the new name.

enum Kind : int { NodeType, EdgeType, Index, Group, Grant, Secret, Skill, Prompt, Tool, Agent, Endpoint, Task, KindCount };

struct KindInfo {
  const char* dir;
  const char* ext;
  const char* prefix;  // of the file id
  const char* root;    // symbol root in code
  int per_mille;       // share of the workspace
};
const KindInfo kKinds[KindCount] = {
    {"node-types", ".json", "NT", "N", 80},      {"edge-types", ".json", "ED", "E", 60},
    {"indexes", ".json", "IX", "Indexes", 70},   {"access/groups", ".json", "GR", "Groups", 20},
    {"access/grants", ".json", "GT", "", 45},    {".secrets", "", "", "Secrets", 3},
    {"skills", ".md", "SK", "Skills", 40},       {"prompts", ".md", "PR", "Prompts", 100},
    {"ai-tools", ".cs", "TL", "AITools", 180},   {"agents", ".json", "AG", "Agents", 80},
    {"endpoints", ".cs", "EP", "Endpoints", 0},  {"tasks", ".json", "TK", "Tasks", 80}};
// Endpoints take what the others leave (about 24%).

struct Ref {
  Kind kind;
  int idx;
  int field = -1;  // node-type member
  int role = 0;    // kind-specific slot (agent: 0 prompt 1 tool 2 skill 3 handoff; grant: 0 group 1 endpoint 2 agent)
};

struct Field {
  std::string name, type;
  bool required;
};

struct Def {
  Kind kind;
  int idx;
  std::string id;  // file id (meaningless)
  std::string name;
  std::uint64_t seed;
  std::vector<Ref> refs;
  std::vector<Field> fields;  // node types
  std::vector<Ref> extra;     // code lines appended by the changeset
  bool deleted = false;
};

struct Model {
  std::uint64_t seed;
  std::vector<Def> defs[KindCount];

  const std::string& name(const Ref& r) const { return defs[r.kind][r.idx].name; }
  const std::string& field(const Ref& r) const { return defs[r.kind][r.idx].fields[r.field].name; }
  std::string path(const Def& d) const {
    if (d.kind == Secret) return std::string(".secrets/") + d.name;
    return std::string(kKinds[d.kind].dir) + "/" + d.id + kKinds[d.kind].ext;
  }
};

std::string make_name(Kind k, int idx, Rng& r) {
  std::string base;
  switch (k) {
    case NodeType: base = r.pick(kNouns); break;
    case EdgeType: base = r.pick(kVerbs) + "s"; break;
    case Index: base = r.pick(kNouns) + "By" + r.pick(kFieldNames); break;
    case Group: base = r.pick(kNouns) + "Team"; break;
    case Secret: base = r.pick(kNouns) + "ApiKey"; break;
    case Skill: base = r.pick(kVerbs) + r.pick(kNouns); break;
    case Prompt: base = r.pick(kNouns) + r.pick(kVerbs) + "Instructions"; break;
    case Tool: base = r.pick(kVerbs) + r.pick(kNouns); break;
    case Agent: base = r.pick(kNouns) + r.pick(kVerbs) + "Agent"; break;
    case Endpoint: base = r.pick(kVerbs) + r.pick(kNouns) + "Endpoint"; break;
    case Task: base = "Nightly" + r.pick(kVerbs) + r.pick(kNouns); break;
    case Grant: base = lower(r.pick(kNouns)) + "-team-can-" + lower(r.pick(kVerbs)); break;
    default: break;
  }
  // The index makes names unique per kind.
  return base + (k == Grant ? "-" : "") + std::to_string(idx);
}

Def new_def(Model& m, Kind k, Rng& r) {
  Def d;
  d.kind = k;
  d.idx = static_cast<int>(m.defs[k].size());
  d.name = make_name(k, d.idx, r);
  char id[32];
  std::snprintf(id, sizeof id, "%s%06d", kKinds[k].prefix, d.idx);
  d.id = id;
  d.seed = splitmix(m.seed ^ splitmix((static_cast<std::uint64_t>(k) << 40) ^ static_cast<std::uint64_t>(d.idx)));
  if (k == NodeType) {
    int nf = r.range(4, 18);
    std::set<int> used;
    while (static_cast<int>(d.fields.size()) < nf) {
      int f = static_cast<int>(r.below(kFieldNames.size()));
      if (!used.insert(f).second) continue;
      d.fields.push_back(Field{kFieldNames[f], r.pick(kFieldTypes), r.chance(30)});
    }
  }
  return d;
}

int count(const Model& m, Kind k) { return static_cast<int>(m.defs[k].size()); }

Ref pick_ref(const Model& m, Kind k, Rng& r, int role = 0) { return Ref{k, r.skewed(count(m, k)), -1, role}; }

Ref pick_field(const Model& m, Rng& r) {
  Ref t = pick_ref(m, NodeType, r);
  t.field = static_cast<int>(r.below(m.defs[NodeType][t.idx].fields.size()));
  return t;
}

void add_unique(std::vector<Ref>& refs, Ref ref) {
  for (const Ref& x : refs)
    if (x.kind == ref.kind && x.idx == ref.idx && x.field == ref.field && x.role == ref.role) return;
  refs.push_back(ref);
}

// The references of one definition; drawn from the model's random stream.
void draw_refs(const Model& m, Def& d, Rng& r) {
  switch (d.kind) {
    case EdgeType:
      d.refs.push_back(Ref{NodeType, r.skewed(count(m, NodeType)), -1, 0});
      d.refs.push_back(Ref{NodeType, r.skewed(count(m, NodeType)), -1, 1});
      break;
    case Index: {
      Ref node = pick_ref(m, NodeType, r);
      d.refs.push_back(node);
      int nf = static_cast<int>(m.defs[NodeType][node.idx].fields.size());
      int k = r.range(1, std::min(3, nf));
      std::set<int> used;
      while (static_cast<int>(used.size()) < k) used.insert(static_cast<int>(r.below(nf)));
      for (int f : used) d.refs.push_back(Ref{NodeType, node.idx, f, 1});
      break;
    }
    case Grant: {
      d.refs.push_back(Ref{Group, r.skewed(count(m, Group)), -1, 0});
      int ne = r.range(8, 30), na = r.range(2, 10);
      for (int i = 0; i < ne; ++i) add_unique(d.refs, pick_ref(m, Endpoint, r, 1));
      for (int i = 0; i < na; ++i) add_unique(d.refs, pick_ref(m, Agent, r, 2));
      break;
    }
    case Prompt: {
      // Includes only earlier prompts: the include graph has no cycles.
      int n = d.idx == 0 ? 0 : r.range(0, 2);
      for (int i = 0; i < n; ++i) add_unique(d.refs, Ref{Prompt, r.skewed(d.idx), -1, 0});
      break;
    }
    case Agent: {
      d.refs.push_back(Ref{Prompt, static_cast<int>(r.below(count(m, Prompt))), -1, 0});
      int nt = r.range(1, 6), ns = r.range(0, 2), nh = d.idx == 0 ? 0 : r.range(0, 2);
      for (int i = 0; i < nt; ++i) add_unique(d.refs, pick_ref(m, Tool, r, 1));
      for (int i = 0; i < ns; ++i) add_unique(d.refs, pick_ref(m, Skill, r, 2));
      for (int i = 0; i < nh; ++i) add_unique(d.refs, Ref{Agent, r.skewed(d.idx), -1, 3});
      break;
    }
    case Task:
      d.refs.push_back(Ref{Endpoint, static_cast<int>(r.below(count(m, Endpoint))), -1, 0});
      break;
    case Tool:
    case Endpoint: {
      bool ep = d.kind == Endpoint;
      int nfields = r.range(1, 6);
      for (int i = 0; i < nfields; ++i) add_unique(d.refs, pick_field(m, r));
      if (r.chance(50)) add_unique(d.refs, pick_ref(m, NodeType, r));
      int nagents = ep ? r.range(0, 2) : r.range(0, 2);
      for (int i = 0; i < nagents; ++i) add_unique(d.refs, pick_ref(m, Agent, r));
      if (r.chance(ep ? 40 : 25)) add_unique(d.refs, pick_ref(m, Prompt, r));
      if (r.chance(ep ? 35 : 15)) add_unique(d.refs, pick_ref(m, Index, r));
      if (r.chance(ep ? 15 : 10)) add_unique(d.refs, pick_ref(m, Secret, r));
      if (r.chance(20)) add_unique(d.refs, pick_ref(m, EdgeType, r));
      if (ep && r.chance(25)) add_unique(d.refs, pick_ref(m, Tool, r));
      if (!ep && r.chance(10)) add_unique(d.refs, pick_ref(m, Tool, r));
      if (r.chance(10)) add_unique(d.refs, pick_ref(m, Endpoint, r));
      if (r.chance(5)) add_unique(d.refs, pick_ref(m, Skill, r));
      if (r.chance(5)) add_unique(d.refs, pick_ref(m, Group, r));
      if (ep && r.chance(5)) add_unique(d.refs, pick_ref(m, Task, r));
      break;
    }
    default: break;
  }
}

// ---------------------------------------------------------------------------
// Rendering: a function of the definition's own seed and the current names.
// The random draws never depend on names, so a rename changes only the names
// in a referrer's bytes.

void json_list(std::string& out, const char* key, const std::vector<std::string>& items, bool last) {
  out += "  \"";
  out += key;
  out += "\": [";
  bool wrap = items.size() > 4;
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i ? "," : "";
    out += wrap ? "\n    " : (i ? " " : "");
    out += "\"" + items[i] + "\"";
  }
  out += wrap ? "\n  ]" : "]";
  out += last ? "\n" : ",\n";
}

std::vector<std::string> names_of(const Model& m, const Def& d, int role) {
  std::vector<std::string> v;
  for (const Ref& x : d.refs)
    if (x.role == role) v.push_back(x.field >= 0 ? m.field(x) : m.name(x));
  return v;
}

std::string render_code(const Model& m, const Def& d) {
  Rng r(d.seed);
  bool ep = d.kind == Endpoint;
  const char* src = ep ? "request" : "args";
  std::string out = "// name: " + d.name + "\n";
  if (ep) {
    out += "// route: /" + lower(r.pick(kNouns)) + "s/{id}/" + lower(r.pick(kVerbs)) + "\n";
    out += "// method: " + r.pick(kMethods) + "\n";
  }
  out += "// description: " + sentence(r, 5, 12) + "\n";

  std::vector<std::string> vars;
  int counter = 0;
  auto fresh = [&](Rng& rr) {
    std::string v = lower(rr.pick(kNouns)) + std::to_string(++counter);
    vars.push_back(v);
    return v;
  };
  auto var = [&](Rng& rr) { return vars.empty() ? std::string(src) : rr.pick(vars); };
  auto indent = [](int depth) { return std::string(static_cast<std::size_t>(depth) * 4, ' '); };

  // One statement using `ref` (root.Name[.Member]).
  auto use = [&](Rng& rr, const Ref& x, int depth) {
    std::string in = indent(depth);
    std::string s;
    switch (x.kind) {
      case NodeType:
        if (x.field >= 0) {
          const std::string& t = m.name(x);
          const std::string& f = m.field(x);
          switch (rr.range(0, 2)) {
            case 0: {
              std::string v = fresh(rr);
              s = in + "var " + v + " = await Graph.Find(N." + t + ".Type, N." + t + "." + f + ", " + src + "." +
                  rr.pick(kFieldNames) + ");\n";
              break;
            }
            case 1:
              s = in + var(rr) + ".Set(N." + t + "." + f + ", \"" + rr.pick(kProse) + "\");\n";
              break;
            default: {
              std::string from = var(rr);
              std::string v = fresh(rr);
              s = in + "var " + v + " = " + from + ".Where(x => x.Get(N." + t + "." + f + ") != null).ToList();\n";
            }
          }
        } else {
          std::string v = fresh(rr);
          s = in + "var " + v + " = await Graph.Get(N." + m.name(x) + ".Type, " + src + "." + rr.pick(kFieldNames) +
              "Id);\n";
        }
        break;
      case Agent: {
        if (rr.chance(50)) {
          std::string from = var(rr);
          std::string v = fresh(rr);
          s = in + "var " + v + " = await Agents." + m.name(x) + ".Run(" + from + ");\n";
        } else {
          s = in + "if (" + var(rr) + ".NeedsHandoff)\n" + in + "{\n" + in + "    // " + sentence(rr) + "\n" + in +
              "    await Agents." + m.name(x) + ".Handoff(" + var(rr) + ");\n" + in + "}\n";
        }
        break;
      }
      case Prompt: {
        std::string from = var(rr);
        std::string v = fresh(rr);
        s = in + "var " + v + " = await Llm.Complete(Prompts." + m.name(x) + ", " + from + ");\n";
        break;
      }
      case Index: {
        std::string v = fresh(rr);
        s = in + "var " + v + " = await Indexes." + m.name(x) + ".Query(new { Limit = " +
            std::to_string(rr.range(1, 500)) + " });\n";
        break;
      }
      case Secret:
        s = in + "await Mail.Notify(Secrets." + m.name(x) + ", " + var(rr) + ");\n";
        break;
      case EdgeType:
        s = in + "await Graph.Link(E." + m.name(x) + ".Type, " + var(rr) + ", " + var(rr) + ");\n";
        break;
      case Tool: {
        std::string from = var(rr);
        std::string v = fresh(rr);
        s = in + "var " + v + " = await AITools." + m.name(x) + ".Invoke(" + from + ");\n";
        break;
      }
      case Endpoint: {
        std::string from = var(rr);
        std::string v = fresh(rr);
        s = in + "var " + v + " = await Endpoints." + m.name(x) + ".Call(" + from + ");\n";
        break;
      }
      case Skill:
        s = in + "await Skills." + m.name(x) + ".Apply(" + var(rr) + ");\n";
        break;
      case Group:
        s = in + "if (!await Groups." + m.name(x) + ".Contains(user))\n" + in + "{\n" + in +
            "    return Results.Forbid();\n" + in + "}\n";
        break;
      case Task:
        s = in + "await Tasks." + m.name(x) + ".Trigger();\n";
        break;
      default: break;
    }
    return s;
  };

  // Statements that reference nothing: comments, strings, control flow.
  auto filler = [&](Rng& rr) {
    std::string s;
    switch (rr.range(0, 8)) {
      case 0: s = "// " + sentence(rr) + "\n"; break;
      case 1: s = "log.Info(\"" + sentence(rr, 4, 10) + "\");\n"; break;
      case 2: {
        std::string v = var(rr);
        s = "if (" + v + " == null)\n{\n    return Results.NotFound(\"" + sentence(rr, 3, 8) + "\");\n}\n";
        break;
      }
      case 3: {
        std::string total = "total" + std::to_string(++counter);
        s = "var " + total + " = 0m;\nforeach (var row in " + var(rr) + ".Items)\n{\n    // " + sentence(rr) +
            "\n    " + total + " += row." + rr.pick(kFieldNames) + ";\n}\n";
        break;
      }
      case 4: {
        std::string v = var(rr);
        std::string msg = "message" + std::to_string(++counter);
        s = "var " + msg + " = $\"" + rr.pick(kVerbs) + " {" + v + ".Id} " + rr.pick(kProse) + " " +
            rr.pick(kProse) + "\";\n";
        break;
      }
      case 5: s = "/*\n * " + sentence(rr) + "\n * " + sentence(rr) + "\n */\n"; break;
      case 6: {
        s = "try\n{\n    await Queue.Publish(\"" + lower(rr.pick(kNouns)) + "." + lower(rr.pick(kVerbs)) + "\", " +
            var(rr) + ");\n}\ncatch (Exception ex)\n{\n    log.Warn(ex.Message);\n}\n";
        break;
      }
      case 7: {
        std::string v = fresh(rr);
        s = "var " + v + " = " + src + "." + rr.pick(kFieldNames) + " ?? \"" + rr.pick(kProse) + "\";\n";
        break;
      }
      default: {
        std::string v = var(rr);
        s = "if (" + v + ".Count > " + std::to_string(rr.range(1, 100)) + ")\n{\n    log.Debug(\"" +
            sentence(rr, 3, 8) + "\");\n}\n";
      }
    }
    return s;
  };

  int fillers = r.range(8, 28);
  std::size_t next_ref = 0;
  int total = fillers + static_cast<int>(d.refs.size());
  for (int i = 0; i < total; ++i) {
    // Spread the references over the body, in their order.
    bool take_ref = next_ref < d.refs.size() &&
                    (r.below(static_cast<std::uint64_t>(total - i)) < d.refs.size() - next_ref);
    if (take_ref)
      out += use(r, d.refs[next_ref++], 0);
    else
      out += filler(r);
  }
  // Lines added by a changeset: their own stream, so the rest is unchanged.
  Rng extra(splitmix(d.seed ^ 0x5eedULL));
  for (const Ref& x : d.extra) out += use(extra, x, 0);
  out += ep ? "return Results.Ok(" + var(r) + ");\n" : "return " + var(r) + ";\n";
  return out;
}

std::string render_markdown(const Model& m, const Def& d) {
  Rng r(d.seed);
  std::string out = "---\nname: " + d.name + "\ndescription: " + sentence(r, 5, 14) + "\n";
  std::vector<std::string> inc = names_of(m, d, 0);
  if (!inc.empty()) {
    if (r.chance(50)) {
      out += "includes:\n";
      for (const auto& i : inc) out += "  - " + i + "\n";
    } else {
      out += "includes: [";
      for (std::size_t i = 0; i < inc.size(); ++i) out += (i ? ", " : "") + inc[i];
      out += "]\n";
    }
  }
  out += "---\n";
  int paragraphs = d.kind == Prompt ? r.range(2, 7) : r.range(1, 4);
  for (int p = 0; p < paragraphs; ++p) {
    if (r.chance(40)) out += "\n## " + r.pick(kVerbs) + " the " + lower(r.pick(kNouns)) + "\n";
    out += "\n";
    if (r.chance(35)) {
      int items = r.range(2, 6);
      for (int i = 0; i < items; ++i) out += "- " + sentence(r, 4, 12) + "\n";
    } else {
      out += sentences(r, r.range(1, 4));
      if (r.chance(40)) out += " Use {{" + lower(r.pick(kNouns)) + "_" + lower(r.pick(kFieldNames)) + "}} here.";
      out += "\n";
    }
  }
  return out;
}

std::string render_json(const Model& m, const Def& d) {
  Rng r(d.seed);
  std::string out = "{\n  \"name\": \"" + d.name + "\",\n";
  auto str = [&](const char* key, const std::string& v, bool last = false) {
    out += std::string("  \"") + key + "\": \"" + v + "\"" + (last ? "\n" : ",\n");
  };
  switch (d.kind) {
    case NodeType: {
      str("description", sentences(r, r.range(2, 6)));
      out += "  \"fields\": [\n";
      for (std::size_t i = 0; i < d.fields.size(); ++i) {
        const Field& f = d.fields[i];
        out += "    { \"name\": \"" + f.name + "\", \"type\": \"" + f.type + "\"";
        if (f.required) out += ", \"required\": true";
        out += i + 1 < d.fields.size() ? " },\n" : " }\n";
      }
      out += "  ]\n";
      break;
    }
    case EdgeType:
      str("from", m.name(d.refs[0]));
      str("to", m.name(d.refs[1]));
      str("inverse", r.pick(kVerbs) + "By" + std::to_string(d.idx));
      str("description", sentences(r, r.range(5, 22)), true);
      break;
    case Index: {
      str("node", m.name(d.refs[0]));
      std::vector<std::string> fields = names_of(m, d, 1);
      for (const Ref& x : d.extra) fields.push_back(m.field(x));
      json_list(out, "fields", fields, false);
      str("description", sentences(r, r.range(5, 22)), true);
      break;
    }
    case Group: str("description", sentences(r, r.range(6, 24)), true); break;
    case Grant: {
      str("group", m.name(d.refs[0]));
      json_list(out, "endpoints", names_of(m, d, 1), false);
      json_list(out, "agents", names_of(m, d, 2), true);
      break;
    }
    case Agent: {
      str("description", sentences(r, r.range(4, 18)));
      str("model", r.pick(kModels));
      str("prompt", names_of(m, d, 0).at(0));
      std::vector<std::string> skills = names_of(m, d, 2), handoffs = names_of(m, d, 3);
      json_list(out, "tools", names_of(m, d, 1), skills.empty() && handoffs.empty());
      if (!skills.empty()) json_list(out, "skills", skills, handoffs.empty());
      if (!handoffs.empty()) json_list(out, "handoffs", handoffs, true);
      break;
    }
    case Task: {
      str("endpoint", m.name(d.refs[0]));
      std::string cron = std::to_string(r.range(0, 59)) + " " + std::to_string(r.range(0, 23)) + " * * " +
                         (r.chance(50) ? "*" : "1-5");
      str("cron", cron);
      str("description", sentences(r, r.range(5, 22)));
      out += std::string("  \"enabled\": ") + (r.chance(80) ? "true" : "false") + "\n";
      break;
    }
    default: break;
  }
  out += "}\n";
  return out;
}

std::string render(const Model& m, const Def& d) {
  switch (d.kind) {
    case Tool:
    case Endpoint: return render_code(m, d);
    case Prompt:
    case Skill: return render_markdown(m, d);
    case Secret: {
      Rng r(d.seed);
      std::string token = "not-a-real-token-";
      for (int i = 0; i < 32; ++i) token += "0123456789abcdef"[r.below(16)];
      return token + "\n";
    }
    default: return render_json(m, d);
  }
}

// ---------------------------------------------------------------------------
// Building the workspace and the changeset.

Model build(std::uint64_t seed, int n) {
  Model m;
  m.seed = seed;
  Rng r(splitmix(seed));
  int counts[KindCount] = {};
  int assigned = 0;
  for (int k = 0; k < KindCount; ++k) {
    counts[k] = std::max(1, n * kKinds[k].per_mille / 1000);
    assigned += counts[k];
  }
  counts[Endpoint] = std::max(1, n - (assigned - counts[Endpoint]));
  for (int k = 0; k < KindCount; ++k)
    for (int i = 0; i < counts[k]; ++i) m.defs[k].push_back(new_def(m, static_cast<Kind>(k), r));
  for (int k = 0; k < KindCount; ++k)
    for (Def& d : m.defs[k]) draw_refs(m, d, r);
  return m;
}

struct Changeset {
  std::vector<std::pair<Kind, int>> modified, added, deleted;
  std::string summary;
};

bool touched(const Changeset& c, Kind k, int i) {
  for (const auto* v : {&c.modified, &c.added, &c.deleted})
    for (const auto& [kk, ii] : *v)
      if (kk == k && ii == i) return true;
  return false;
}

// Referrers of every definition: (kind, idx) -> the definitions whose refs name it.
std::map<std::pair<int, int>, std::vector<std::pair<Kind, int>>> referrers(const Model& m) {
  std::map<std::pair<int, int>, std::vector<std::pair<Kind, int>>> out;
  for (int k = 0; k < KindCount; ++k)
    for (const Def& d : m.defs[k]) {
      std::set<std::pair<int, int>> seen;
      for (const Ref& x : d.refs)
        if (seen.insert({x.kind, x.idx}).second) out[{x.kind, x.idx}].push_back({d.kind, d.idx});
    }
  return out;
}

Changeset make_changeset(Model& m, int k_files) {
  Changeset c;
  Rng r(splitmix(m.seed ^ 0xc4a9e5e7ULL));
  auto refs = referrers(m);
  auto referrer_count = [&](Kind k, int i) {
    auto it = refs.find({k, i});
    return it == refs.end() ? 0 : static_cast<int>(it->second.size());
  };
  auto budget = [&] {
    return k_files - static_cast<int>(c.modified.size() + c.added.size() + c.deleted.size());
  };
  char line[512];

  // 1. Rename an agent that a few others reference; update every referrer.
  int max_referrers = std::max(0, std::min(6, k_files - 12));
  int agent = -1;
  for (int want = std::min(2, max_referrers); want >= 0 && agent < 0; --want)
    for (int i = count(m, Agent) - 1; i >= 0; --i) {
      int rc = referrer_count(Agent, i);
      if (rc >= want && rc <= max_referrers) {
        agent = i;
        break;
      }
    }
  std::string renamed_to;
  if (agent >= 0 && budget() >= 1 + referrer_count(Agent, agent)) {
    Def& a = m.defs[Agent][agent];
    std::string old = a.name;
    renamed_to = a.name = "Renamed" + a.name;
    c.modified.push_back({Agent, agent});
    for (const auto& [rk, ri] : refs[{Agent, agent}])
      if (!touched(c, rk, ri)) c.modified.push_back({rk, ri});
    std::snprintf(line, sizeof line, "rename agent %s -> %s (%s) and its %d referrers\n", old.c_str(),
                  renamed_to.c_str(), m.path(a).c_str(), referrer_count(Agent, agent));
    c.summary += line;
  }

  // 2. Delete a definition nothing references (an AI tool no agent lists, else a task).
  if (budget() >= 1) {
    int tool = -1;
    for (int i = count(m, Tool) - 1; i >= 0 && tool < 0; --i)
      if (referrer_count(Tool, i) == 0 && !touched(c, Tool, i)) tool = i;
    int task = -1;
    for (int i = count(m, Task) - 1; i >= 0 && tool < 0 && task < 0; --i)
      if (referrer_count(Task, i) == 0 && !touched(c, Task, i)) task = i;
    Kind dk = tool >= 0 ? Tool : Task;
    int di = tool >= 0 ? tool : task;
    if (di >= 0) {
      m.defs[dk][di].deleted = true;
      c.deleted.push_back({dk, di});
      c.summary += "delete unreferenced " + m.path(m.defs[dk][di]) + "\n";
    }
  }

  // 3. Add fields to node types; an endpoint and an index use them.
  std::vector<Ref> new_fields;
  const std::vector<std::string> extra_names = {"EscalatedAt", "ReviewedBy", "Confidence", "ArchivedAt"};
  for (int j = 0; j < 2 && budget() >= 2; ++j) {
    int t = -1;
    for (int tries = 0; tries < 1000 && t < 0; ++tries) {
      // The second one is a node type some index covers, so the index can use it.
      int cand = j == 0 ? static_cast<int>(r.below(count(m, NodeType)))
                        : m.defs[Index][r.below(count(m, Index))].refs[0].idx;
      if (!touched(c, NodeType, cand)) t = cand;
    }
    if (t < 0) break;
    Def& nt = m.defs[NodeType][t];
    std::string fname = extra_names[j];
    bool clash = true;
    while (clash) {
      clash = false;
      for (const Field& f : nt.fields) clash |= f.name == fname;
      if (clash) fname += "2";
    }
    nt.fields.push_back(Field{fname, j == 0 ? "time" : "string", false});
    c.modified.push_back({NodeType, t});
    new_fields.push_back(Ref{NodeType, t, static_cast<int>(nt.fields.size()) - 1, 1});
    c.summary += "add field " + nt.name + "." + fname + " (" + m.path(nt) + ")\n";
  }
  if (!new_fields.empty() && budget() >= 1) {
    for (int tries = 0; tries < 1000; ++tries) {
      int e = static_cast<int>(r.below(count(m, Endpoint)));
      if (touched(c, Endpoint, e)) continue;
      m.defs[Endpoint][e].extra.push_back(new_fields[0]);
      c.modified.push_back({Endpoint, e});
      c.summary += "use N." + m.name(new_fields[0]) + "." + m.field(new_fields[0]) + " in " +
                   m.path(m.defs[Endpoint][e]) + "\n";
      break;
    }
  }
  if (new_fields.size() > 1 && budget() >= 1) {
    const Ref& f = new_fields[1];
    for (const Def& ix : m.defs[Index])
      if (ix.refs[0].idx == f.idx && !touched(c, Index, ix.idx)) {
        m.defs[Index][ix.idx].extra.push_back(f);
        c.modified.push_back({Index, ix.idx});
        c.summary += "index " + ix.name + " also on field " + m.field(f) + "\n";
        break;
      }
  }

  // 4. Add definitions that reference existing names (and each other).
  const Kind cycle[] = {Tool, Endpoint, Agent, Task, Index, Prompt, EdgeType, Grant, NodeType, Skill, Group, Endpoint};
  int added_tool = -1, added_endpoint = -1;
  for (int j = 0; budget() > 0; ++j) {
    Kind k = cycle[j % (sizeof cycle / sizeof cycle[0])];
    Def d = new_def(m, k, r);
    d.name = "Added" + d.name;
    draw_refs(m, d, r);
    switch (k) {
      case Tool:
        if (agent >= 0) add_unique(d.refs, Ref{Agent, agent, -1, 0});
        for (const Ref& f : new_fields) add_unique(d.refs, f);
        added_tool = d.idx;
        break;
      case Endpoint:
        if (added_tool >= 0) add_unique(d.refs, Ref{Tool, added_tool, -1, 0});
        added_endpoint = d.idx;
        break;
      case Agent:
        if (added_tool >= 0) add_unique(d.refs, Ref{Tool, added_tool, -1, 1});
        if (agent >= 0) add_unique(d.refs, Ref{Agent, agent, -1, 3});
        break;
      case Task:
        if (added_endpoint >= 0) d.refs[0].idx = added_endpoint;
        break;
      case Index:
        if (!new_fields.empty()) {
          d.refs.clear();
          d.refs.push_back(Ref{NodeType, new_fields[0].idx, -1, 0});
          d.refs.push_back(Ref{NodeType, new_fields[0].idx, new_fields[0].field, 1});
        }
        break;
      case Grant:
        if (agent >= 0) add_unique(d.refs, Ref{Agent, agent, -1, 2});
        if (added_endpoint >= 0) add_unique(d.refs, Ref{Endpoint, added_endpoint, -1, 1});
        break;
      default: break;
    }
    // Deleted definitions are referenced by nobody, old or new.
    std::erase_if(d.refs, [&](const Ref& x) { return m.defs[x.kind][x.idx].deleted; });
    if (k == Task && d.refs.empty()) d.refs.push_back(Ref{Endpoint, 0, -1, 0});
    c.added.push_back({k, d.idx});
    c.summary += "add " + m.path(d) + " (" + d.name + ")\n";
    m.defs[k].push_back(std::move(d));
  }
  return c;
}

// ---------------------------------------------------------------------------
// Output.

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "ws-bench-gen: %s\n", what.c_str());
  std::exit(2);
}

void make_dirs(const std::string& path) {
  for (std::size_t i = 1; i <= path.size(); ++i)
    if (i == path.size() || path[i] == '/') {
      std::string p = path.substr(0, i);
      if (::mkdir(p.c_str(), 0777) != 0 && errno != EEXIST) die("mkdir " + p + ": " + std::strerror(errno));
    }
}

std::uint64_t write_file(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) die("open " + path + ": " + std::strerror(errno));
  if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0)
    die("write " + path + ": " + std::strerror(errno));
  return bytes.size();
}

void make_kind_dirs(const std::string& root) {
  for (const KindInfo& k : kKinds) make_dirs(root + "/" + k.dir);
}

void usage() {
  std::fprintf(stderr,
               "usage: ws-bench-gen [--seed S] [--definitions N] [--changeset K] [--apply-changeset] OUT_DIR\n"
               "  writes N definitions into OUT_DIR and a K-file changeset into OUT_DIR.changes/;\n"
               "  with --apply-changeset, writes the changeset into OUT_DIR instead\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  long n = 1000, k = 20;
  bool apply = false;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage();
        die("missing value after " + a);
      }
      return argv[++i];
    };
    auto number = [&](const std::string& v) {
      char* end = nullptr;
      errno = 0;
      unsigned long long x = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end || errno) die("not a number: '" + v + "'");
      return x;
    };
    if (a == "--seed") seed = number(value());
    else if (a == "--definitions") n = static_cast<long>(number(value()));
    else if (a == "--changeset") k = static_cast<long>(number(value()));
    else if (a == "--apply-changeset") apply = true;
    else if (a == "-h" || a == "--help") {
      usage();
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      usage();
      die("unknown option " + a);
    } else if (out.empty()) out = a;
    else {
      usage();
      die("more than one OUT_DIR");
    }
  }
  if (out.empty()) {
    usage();
    die("no OUT_DIR");
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (n < 50 || n > 10'000'000) die("--definitions must be between 50 and 10,000,000");
  if (k < 8 || k > 1000) die("--changeset must be between 8 and 1000");

  Model m = build(seed, static_cast<int>(n));
  std::vector<std::pair<std::string, std::string>> base_files;
  std::uint64_t base_bytes = 0, files = 0;
  if (!apply) {
    make_kind_dirs(out);
    for (int kk = 0; kk < KindCount; ++kk)
      for (const Def& d : m.defs[kk]) {
        base_bytes += write_file(out + "/" + m.path(d), render(m, d));
        ++files;
      }
  }

  Changeset c = make_changeset(m, static_cast<int>(k));
  std::string dest = apply ? out : out + ".changes/files";
  if (!apply) make_dirs(out + ".changes");
  make_kind_dirs(dest);
  std::string paths, deleted;
  std::uint64_t change_bytes = 0;
  for (const auto* v : {&c.modified, &c.added}) {
    for (const auto& [kk, i] : *v) {
      const Def& d = m.defs[kk][i];
      change_bytes += write_file(dest + "/" + m.path(d), render(m, d));
      paths += m.path(d) + "\n";
    }
  }
  for (const auto& [kk, i] : c.deleted) {
    std::string p = m.path(m.defs[kk][i]);
    deleted += p + "\n";
    paths += p + "\n";
    if (apply && std::remove((out + "/" + p).c_str()) != 0 && errno != ENOENT)
      die("remove " + p + ": " + std::strerror(errno));
  }
  if (!apply) {
    write_file(out + ".changes/paths", paths);
    write_file(out + ".changes/deleted", deleted);
    write_file(out + ".changes/summary", c.summary);
    std::printf("wrote %llu definitions (%llu bytes) to %s\n", static_cast<unsigned long long>(files),
                static_cast<unsigned long long>(base_bytes), out.c_str());
    std::printf("changeset: %zu modified, %zu added, %zu deleted (%llu bytes) in %s.changes\n", c.modified.size(),
                c.added.size(), c.deleted.size(), static_cast<unsigned long long>(change_bytes), out.c_str());
  } else {
    std::printf("applied changeset: %zu modified, %zu added, %zu deleted\n", c.modified.size(), c.added.size(),
                c.deleted.size());
  }
  std::fputs(c.summary.c_str(), stdout);
  return 0;
}
