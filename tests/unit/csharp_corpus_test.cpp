// A corpus of current C# (12 and 13), one case per construct family, each a
// realistic endpoint or AI-tool body read by the C# reader: whether the
// pinned grammar reads it with a syntax error, and exactly which references
// it finds (kind, name, member, position, text). Written for the project;
// nothing here is copied from elsewhere.
//
// A case marked as a grammar gap is valid C# that the pinned
// tree-sitter-c-sharp reads with an error: its references outside the part
// that does not parse must still be found, and the file says that some may
// be missing (ws-build(1), WS001).
#include "reader_test_util.h"

using namespace reader_test;
using Strings = std::vector<std::string>;

namespace {

struct Case {
  const char* family;
  const char* path;    // routes the file: endpoints/*.cs or ai-tools/*.cs
  const char* source;  // the whole file, header included (line 1 is its first line)
  Strings diagnostics;  // exact: "WS001 7:3 syntax error: ..."
  Strings refs;         // exact: "agent Triage @5:20-5:33 Agents.Triage"
};

// A reference with the source text it spans, so a row shows what was found.
Strings refs_with_text(const ws::Definition& d) {
  Strings out;
  for (const auto& r : d.refs)
    out.push_back(fmt::format("{} {}{} @{} {}", r.target_kind, r.name, r.member.empty() ? "" : "." + r.member,
                              at(r.span), r.text));
  return out;
}

const Case kCases[] = {
    {"statements: if, loops, switch, goto, labels", "endpoints/close.cs", R"cs(// name: CloseStale
// route: /tickets/close-stale
// method: POST
var closed = 0;
var tickets = await Indexes.OpenTickets.Query();
foreach (var t in tickets)
{
    if (t.Get(N.Ticket.Status) == "waiting") continue;
    else if (t.Age > 30) closed++;
    else break;
}
for (int i = 0, j = 10; i < j; i++, j--) closed += i;
int k = 0;
while (k < 3) { k++; }
do { k--; } while (k > 0);
switch (closed)
{
    case 0:
        goto default;
    case 1 or 2 when k == 0:
        await Agents.Triage.Run(tickets);
        break;
    case int n and > 100:
        goto case 0;
    default:
        break;
}
retry:
if (closed < 0) goto retry;
return Results.Ok(new { closed, agent = Agents.Billing });
)cs",
     {},
     {"index OpenTickets @5:21-5:40 Indexes.OpenTickets",
      "node-type Ticket.Status @8:15-8:30 N.Ticket.Status",
      "agent Triage @21:15-21:28 Agents.Triage",
      "agent Billing @30:41-30:55 Agents.Billing"}},

    {"statements: using, lock, try/catch/finally, checked, unsafe, fixed, yield", "ai-tools/audit.cs",
     R"cs(// name: ExportAudit
// description: Writes the audit trail of a ticket to a file
global using static System.Math;
using System.IO;
using var log = File.CreateText(args.Path);
using (var reader = Graph.OpenAudit(N.Ticket.Type, args.TicketId))
{
    lock (log)
    {
        try
        {
            log.WriteLine(reader.ReadToEnd());
        }
        catch (IOException ex) when (ex.HResult == 32)
        {
            throw new InvalidOperationException("busy", ex);
        }
        catch
        {
            throw;
        }
        finally
        {
            log.Flush();
        }
    }
}
var total = checked(args.Count * 2);
unchecked { total += int.MaxValue; }
unsafe
{
    byte[] key = Secrets.AuditKey.Bytes();
    fixed (byte* p = key) { *p ^= 0x5a; }
}
IEnumerable<int> Pages(int n)
{
    for (var i = 0; i < n; i++) yield return i;
    yield break;
}
return Pages(total).Select(p => Tasks.ExportPage.Run(p));
)cs",
     {},
     {"node-type Ticket.Type @6:37-6:50 N.Ticket.Type",
      "secret AuditKey @32:18-32:34 Secrets.AuditKey",
      "task ExportPage @40:33-40:49 Tasks.ExportPage"}},

    {"expressions: lambdas and anonymous methods", "ai-tools/score.cs", R"cs(// name: ScoreTickets
// description: Scores tickets with the triage agent
Func<int, int> twice = x => x * 2;
Func<int, int, int> add = static (a, b) => a + b;
var parse = [Pure] (string s, int fallback = 0) => int.TryParse(s, out var v) ? v : fallback;
var sum = (params int[] xs) => xs.Sum();
var score = async (Ticket t) => await Agents.Triage.Score(t, Prompts.Scoring);
Action<string> log = delegate (string m) { Console.WriteLine(m); };
Action ignore = delegate { };
var pick = object (bool b) => b ? 1 : "one";
var discard = (int _, int _) => 0;
return await score(args.Ticket) + twice(parse(args.Weight)) + add(1, sum(1, 2));
)cs",
     {},
     {"agent Triage @7:39-7:52 Agents.Triage",
      "prompt Scoring @7:62-7:77 Prompts.Scoring"}},

    {"expressions: switch, with, ranges, null operators, tuples, collections, nameof, typeof, default",
     "endpoints/summaries.cs", R"cs(// name: Summaries
// route: /summaries
// method: GET
var tickets = await Graph.Find(N.Ticket.Type);
var first = tickets[0];
var last = tickets[^1];
var middle = tickets[1..^1];
var head = tickets[..3];
var label = first.Priority switch
{
    > 3 => "urgent",
    2 or 3 => "normal",
    _ => "low",
};
var copy = first with { Status = "seen" };
var owner = first.Owner ?? Groups.Support.Default;
first.Notes ??= new();
var title = first?.Title?[0];
(string name, int count) pair = ("open", tickets.Count);
var (n, c) = pair;
(n, c) = (c.ToString(), n.Length);
int[] extra = [1, 2];
List<int> all = [..extra, 3, ..(int[])[4, 5]];
Dictionary<string, int> map = new() { ["a"] = 1 };
var names = (nameof(Agents.Triage), nameof(N.Ticket.Status));
var types = (typeof(List<>), typeof(int?), default(int), sizeof(long));
string? none = default;
var size = first.Body!.Length;
var id = (object)first.Id as string ?? throw new ArgumentException(nameof(first));
Span<int> buf = stackalloc int[4];
return Results.Ok(new { label, copy, owner, title, all, names, types, E.RaisedBy });
)cs",
     {},
     {"node-type Ticket.Type @4:32-4:45 N.Ticket.Type",
      "access-group Support @16:28-16:42 Groups.Support",
      "agent Triage @25:21-25:34 Agents.Triage",
      "node-type Ticket.Status @25:44-25:59 N.Ticket.Status",
      "edge-type RaisedBy @31:71-31:81 E.RaisedBy"}},

    {"patterns: type, property, positional, list, relational, and/or/not, var", "ai-tools/classify.cs",
     R"cs(// name: Classify
// description: Picks a queue from the ticket's shape
var t = args.Ticket;
if (t is null || t is not Ticket) return null;
if (t is Ticket { Status: "open", Customer.Tier: >= 2 } vip) return Agents.Billing.Handoff(vip);
var queue = t.Tags switch
{
    [] => "empty",
    ["billing", ..] => "billing",
    [_, var second, ..] => second,
    _ => "other",
};
var bucket = t.Score switch
{
    < 0 => -1,
    >= 0 and < 10 => 0,
    not (>= 10 and <= 20) => 2,
    _ => 1,
};
var kind = t switch
{
    (var a, var b) when a == b => "same",
    { Kind: var k } => k,
};
if (t.Owner is string { Length: > 0 } owner and not "nobody") queue = owner;
if (t.Ref is var r && r is Ticket(_, var parent)) queue = parent;
return Tasks.Route.Enqueue(queue, bucket, kind, N.Ticket.Status);
)cs",
     {},
     {"agent Billing @5:69-5:83 Agents.Billing",
      "task Route @27:8-27:19 Tasks.Route",
      "node-type Ticket.Status @27:49-27:64 N.Ticket.Status"}},

    {"strings: regular, verbatim, interpolated, raw, raw interpolated, UTF-8, chars", "ai-tools/greet.cs",
     R"cs(// name: Greeting
// description: Builds the reply text
var name = args.Name;
var plain = "Agents.Triage says \"hi\"\t\\ \u00e9 \x41 \U0001F600";
var verbatim = @"C:\Agents\Triage ""Agents.Billing""";
var interp = $"Dear {name}, {Agents.Triage.Name,-10} at {DateTime.Now:yyyy-MM-dd} {{Prompts.Tone}}";
var vinterp = $@"{name}\{Prompts.Greeting.Text}";
var ivinterp = @$"{name}\Agents.Billing";
var raw = """
    Agents.Billing "quoted" ""still""
    """;
var rawi = $$"""
    {"agent": "{{Agents.Billing.Name}}", "literal": "{Agents.Triage}"}
    """;
var rawsingle = """Secrets.Key""";
var utf8 = "Secrets.Key"u8;
var chars = new[] { 'a', '\'', '\n', '\\', '\u0041', '\x41', '"' };
var nested = $"{(name is null ? "none" : $"{name}:{Skills.Summarize.Id}")}";
return $"{plain}{verbatim}{interp}{vinterp}{ivinterp}{raw}{rawi}{rawsingle}{utf8.Length}{chars}{nested}";
)cs",
     {},
     {"agent Triage @6:30-6:43 Agents.Triage",
      "prompt Greeting @7:26-7:42 Prompts.Greeting",
      "agent Billing @13:18-13:32 Agents.Billing",
      "skill Summarize @18:52-18:68 Skills.Summarize"}},

    {"preprocessor: define, undef, nullable, region, pragma, if/elif/else, line, warning", "endpoints/diag.cs",
     R"cs(// name: Diagnostics
// route: /diag
// method: GET
#define VERBOSE
#undef LEGACY
#nullable enable
using System.Diagnostics;
#region Agents.Setup
var report = new List<string>();
#endregion Agents.Setup
#pragma warning disable CS0168
#if VERBOSE && !LEGACY
report.Add(Agents.Triage.Status);
#elif LEGACY
report.Add(Agents.Billing.Status);
#else
report.Add("none");
#endif
#pragma warning restore CS0168
#nullable restore
#line 200 "Agents.Generated.cs"
#line default
#warning check Agents.Triage
return report;
)cs",
     {},
     {"agent Triage @13:12-13:25 Agents.Triage",
      "agent Billing @15:12-15:26 Agents.Billing"}},

    {"local functions and the types a body declares", "ai-tools/escalate.cs", R"cs(// name: Escalate
// description: Escalates a ticket through the chain of agents
var level = Level.Low;
var chain = new Chain(Agents.Triage, Agents.Billing);
return await Next(chain, level);

static async Task<string> Next(Chain c, Level l) => l switch
{
    Level.High => await c.Last.Run(Prompts.Escalation),
    _ => await c.First.Run(Prompts.Triage),
};

[Obsolete]
int Unused<T>(T x) where T : struct => 0;

enum Level { Low, High = 2 }
record Chain(IAgent First, IAgent Last);
record struct Point(int X, int Y);
readonly struct Money(decimal amount) { public decimal Amount => amount; }
class Counter(int start)
{
    public int Value { get; private set; } = start;
    public event Action? Changed;
    public void Inc() { Value++; Changed?.Invoke(); }
    public static Counter operator +(Counter a, int b) => new(a.Value + b);
    public int this[int i] => Value + i;
    ~Counter() { }
}
interface IAgent { Task<string> Run(object prompt); }
file sealed class Hidden { internal const string Key = nameof(Secrets.ApiKey); }
delegate void Notify(string m);
)cs",
     {},
     {"agent Triage @4:23-4:36 Agents.Triage",
      "agent Billing @4:38-4:52 Agents.Billing",
      "prompt Escalation @9:36-9:54 Prompts.Escalation",
      "prompt Triage @10:28-10:42 Prompts.Triage",
      "secret ApiKey @30:63-30:77 Secrets.ApiKey"}},

    {"generics: constraints, variance, static abstract members", "ai-tools/totals.cs", R"cs(// name: Totals
// description: Sums ticket counts per queue
var counts = new Dictionary<string, List<int>>();
var total = Sum<int>(counts.Values.SelectMany(v => v));
var agent = Graph.Get<IAgentRef>(Agents.Triage);
return Box<string>.Of(total.ToString(), Prompts.Summary);

static T Sum<T>(IEnumerable<T> xs) where T : INumber<T>
{
    var acc = T.Zero;
    foreach (var x in xs) acc += x;
    return acc;
}

interface IProducer<out T> { T Get(); }
interface IConsumer<in T> { void Put(T x); }
interface IParse<TSelf> where TSelf : IParse<TSelf>
{
    static abstract TSelf Parse(string s);
    static virtual TSelf Default => TSelf.Parse("");
}
class Box<T> where T : class
{
    public static Box<T> Of(string s, object p) => new();
}
class Holder<TKey, TValue> where TKey : notnull where TValue : unmanaged, Enum { }
)cs",
     {},
     {"agent Triage @5:34-5:47 Agents.Triage",
      "prompt Summary @6:41-6:56 Prompts.Summary"}},

    {"async: await foreach, await using, ValueTask, async iterators", "endpoints/stream.cs", R"cs(// name: Stream
// route: /stream
// method: GET
await using var conn = await Graph.Connect(Secrets.GraphToken);
await foreach (var t in conn.Stream(N.Ticket.Type).WithCancellation(ct))
{
    await Agents.Triage.Run(t).ConfigureAwait(false);
}
await foreach (var (id, body) in Pairs()) { }
await using (var tx = await conn.Begin()) { await tx.Commit(); }
var all = await Task.WhenAll(Load(1), Load(2));
return await Cached();

async ValueTask<int> Cached() => await new ValueTask<int>(all.Length);
async Task<int> Load(int i) { await Task.Yield(); return i; }
async IAsyncEnumerable<(int, string)> Pairs()
{
    await Task.Delay(1);
    yield return (1, await Prompts.Tone.Text());
}
)cs",
     {},
     {"secret GraphToken @4:44-4:62 Secrets.GraphToken",
      "node-type Ticket.Type @5:37-5:50 N.Ticket.Type",
      "agent Triage @7:11-7:24 Agents.Triage",
      "prompt Tone @19:28-19:40 Prompts.Tone"}},

    {"LINQ query syntax: from, let, join into, where, group into, orderby, select into", "ai-tools/workload.cs",
     R"cs(// name: Workload
// description: Open tickets per agent, busiest first
var tickets = await Indexes.OpenTickets.Query();
var agents = new[] { Agents.Triage, Agents.Billing };
var load =
    from t in tickets
    let owner = t.Get(N.Ticket.Owner)
    join a in agents on owner equals a.Id into mine
    from m in mine.DefaultIfEmpty()
    where t.Get(N.Ticket.Status) != "closed"
    group t by m into g
    orderby g.Count() descending, g.Key ascending
    select new { agent = g.Key, count = g.Count() };
var pairs = from x in tickets
            join y in tickets on x.Id equals y.ParentId
            select (x, y) into pair
            where pair.x != null
            select pair;
return load.Take(Tasks.Digest.Limit);
)cs",
     {},
     {"index OpenTickets @3:21-3:40 Indexes.OpenTickets",
      "agent Triage @4:22-4:35 Agents.Triage",
      "agent Billing @4:37-4:51 Agents.Billing",
      "node-type Ticket.Owner @7:23-7:37 N.Ticket.Owner",
      "node-type Ticket.Status @10:17-10:32 N.Ticket.Status",
      "task Digest @19:18-19:30 Tasks.Digest"}},

    {"C# 12 and 13: type aliases, \\e, params spans, ref readonly, implicit index, partial properties, ref struct",
     "ai-tools/latest.cs", R"cs(// name: Latest
// description: Constructs of C# 12 and 13
using Pair = (int First, int Second);
using Names = string[];
var esc = "\e[1m";
var p = new Pair(1, 2);
Log(Agents.Triage.Name, Prompts.Tone.Text);
var buf = new Ring { [^1] = 7 };
return p.First;

static void Log(params ReadOnlySpan<string> parts) { }
static int Peek(ref readonly int x) => x;
class Ring { public int[] Items = new int[4]; public int this[Index i] { get => Items[i]; set => Items[i] = value; } }
partial class Doc { public partial string Title { get; } }
partial class Doc { public partial string Title => Skills.Summarize.Name; }
ref struct Scanner : IDisposable { public void Dispose() { } }
)cs",
     {},
     {"agent Triage @7:5-7:18 Agents.Triage",
      "prompt Tone @7:25-7:37 Prompts.Tone",
      "skill Summarize @15:52-15:68 Skills.Summarize"}},

    // Valid C# the pinned grammar cannot parse (issue: references dropped
    // from files with a syntax error): what is around the error still counts,
    // strings and comments inside it still do not.
    {"grammar gap: #if inside a switch expression arm", "endpoints/gapif.cs", R"cs(// name: GapIf
// route: /gap
// method: GET
var target = args.Mode switch
{
#if DEBUG
    1 => "Agents.Skipped" /* Agents.Skipped */ + Agents.Triage,
#endif
    _ => Agents.Billing,
};
return await target.Run(Prompts.Tone);
)cs",
     {"WS001 6:1 syntax error: unexpected '#if DEBUG...'"},
     {"agent Triage @7:50-7:63 Agents.Triage",
      "agent Billing @9:10-9:24 Agents.Billing",
      "prompt Tone @11:25-11:37 Prompts.Tone"}},

    {"grammar gap: an escaped quote inside an interpolation's format", "ai-tools/gapformat.cs",
     R"cs(// name: GapFormat
// description: Quotes a value with a custom format
var text = $"{args.When:\"at\" HH:mm}";
return Agents.Billing.Reply(text, Prompts.Tone);
)cs",
     {"WS001 3:24 syntax error: unexpected ':\\\"at\\\" HH'"},
     {"agent Billing @4:8-4:22 Agents.Billing",
      "prompt Tone @4:35-4:47 Prompts.Tone"}},

    {"grammar gap: a slice pattern with a subpattern (C# 11)", "ai-tools/gapslice.cs", R"cs(// name: GapSlice
// description: The second tag, when there are more
var tags = args.Ticket.Tags;
var queue = tags switch
{
    [_, var second, .. var rest] when rest.Length > 2 => second,
    _ => Agents.Triage.DefaultQueue,
};
return Tasks.Route.Enqueue(queue);
)cs",
     {"WS001 6:24 syntax error: unexpected 'var rest] when rest'",
      "WS001 6:54 syntax error: missing ']'"},
     {"agent Triage @7:10-7:23 Agents.Triage",
      "task Route @9:8-9:19 Tasks.Route"}},

    {"grammar gap: an 'allows ref struct' constraint (C# 13)", "ai-tools/gapallows.cs", R"cs(// name: GapAllows
// description: A pool of any type, ref structs too
var pool = new Pool<Span<byte>>(Secrets.PoolKey);
return Agents.Triage.Run(pool);
class Pool<T>(object key) where T : allows ref struct { public object Key => Prompts.Tone; }
)cs",
     {"WS001 5:37 syntax error: unexpected 'allows'"},
     {"secret PoolKey @3:33-3:48 Secrets.PoolKey",
      "agent Triage @4:8-4:21 Agents.Triage",
      "prompt Tone @5:78-5:90 Prompts.Tone"}},

    {"a body-less type (C# 12), which the grammar reads since 0.23.5", "ai-tools/empty.cs", R"cs(// name: EmptyType
// description: Declares a marker type
var marker = new Empty();
return Agents.Triage.Tag(marker);
class Empty;
)cs",
     {},
     {"agent Triage @4:8-4:21 Agents.Triage"}},
};

}  // namespace

TEST_CASE("csharp corpus: every construct family of current C#", "[reader][csharp][corpus]") {
  for (const Case& c : kCases) {
    INFO(c.family);
    ws::Definition d = read(c.path, c.source);
    CHECK(diags(d) == c.diagnostics);
    CHECK(refs_with_text(d) == c.refs);
    // A file read with a syntax error is partly read, and its first error says so.
    CHECK(d.partly_read == !c.diagnostics.empty());
    if (!d.diagnostics.empty()) {
      REQUIRE(d.diagnostics[0].notes.size() == 1);
      CHECK(d.diagnostics[0].notes[0].message ==
            "references in this file are read outside the parts that do not parse; some may be missing");
    }
  }
}
