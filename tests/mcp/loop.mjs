// An agent's whole loop through `ws mcp` with the official MCP client
// (docs/mcp.md): list, search, read, a stale write refused, a write that
// breaks the build, the fix, a new file, a delete in two steps, a commit.
//   node loop.mjs WS WORKSPACE    (or WS_MCP_BIN and WS_MCP_WORKSPACE)
// WORKSPACE holds the example workspace, committed. One line a step on
// standard output, without ids, times or absolute paths; exit 1 at the
// first failed check.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { blobOf, call, check, close, connect, isBlob, ofType, only, refused, runScript } from "./client.mjs";

const ws = process.argv[2] ?? process.env.WS_MCP_BIN;
const workspace = process.argv[3] ?? process.env.WS_MCP_WORKSPACE;
if (!ws || !workspace) {
  process.stderr.write("usage: node loop.mjs WS WORKSPACE\n");
  process.exit(2);
}

const ROUTE = "ai-tools/TLroute01.cs";
const REFUND = "prompts/PRrefund01.md";
const REFUND_TEXT =
  "---\n" +
  "name: RefundInstructions\n" +
  "description: How to explain a refund that was declined\n" +
  "includes: [Tone]\n" +
  "---\n" +
  "Say why the refund was declined and what the customer can do next.\n";
const DIGEST = "tasks/TKdigest01.json";

// The ids a refusal may quote (blob ids, tokens) are shown in the
// transcript by what they stand for; the rest of its text is the server's.
const names = new Map();
const shown = (text) => [...names].reduce((t, [id, label]) => t.split(id).join(`<${label}>`), text);

const onDisk = (path) => existsSync(join(workspace, path));
const bytesOnDisk = (path) => readFileSync(join(workspace, path), "utf8");

// Writes `content` to `path` over `expected`; the record must name the
// path and the blob of the bytes, which must be on disk.
async function write(client, out, path, content, expected) {
  const written = only(await call(client, "write", { path, content, expected }), "written");
  check(written.path === path, `written names ${written.path}`);
  check(written.blob === blobOf(content), `written blob ${written.blob} is not the content's ${blobOf(content)}`);
  check(bytesOnDisk(path) === content, `${path} on disk is not what was written`);
  out(`write ${path} over ${expected === "absent" ? "absent" : "its blob"}: written, blob ok`);
  return written.blob;
}

async function build(client, out) {
  const records = await call(client, "build", {});
  for (const d of ofType(records, "diagnostic")) {
    out(`build ${d.severity} ${d.code} ${d.path}:${d.line}:${d.column} ${d.message}`);
    for (const n of d.notes) out(`  note ${n.path === null ? "" : `${n.path}:${n.line}:${n.column} `}${n.message}`);
  }
  const summary = records[records.length - 1];
  check(summary.type === "summary", `build ends with ${JSON.stringify(summary)}`);
  check(records.length === ofType(records, "diagnostic").length + 1, `build: other records: ${JSON.stringify(records)}`);
  out(`build summary: ${summary.text} (errors ${summary.errors}, clean ${summary.clean})`);
}

await runScript(async (out) => {
  const agent = await connect(ws, workspace, "agent-one");
  const client = agent.client;

  const info = client.getServerVersion();
  out(`server ${info.name}`);
  const infoText = [info.name, info.title, info.version, info.description].filter(Boolean).join(" ");
  check(infoText.includes("agent-one"), `serverInfo does not name the session: ${JSON.stringify(info)}`);
  out("serverInfo names the session agent-one");
  check((client.getInstructions() ?? "").includes("agent-one"),
        `the instructions do not name the session: ${JSON.stringify(client.getInstructions())}`);
  out("instructions name the session agent-one");

  // listTools also makes the SDK compile each outputSchema, which every
  // callTool below is then checked against.
  const { tools } = await client.listTools();
  out(`tools ${tools.map((t) => t.name).sort().join(" ")}`);
  for (const t of tools) check(t.outputSchema, `tool ${t.name} has no outputSchema`);

  const agents = await call(client, "ls", { kinds: ["agent"] });
  let billingBlob = null;
  for (const e of agents) {
    check(e.type === "entry", `ls: ${JSON.stringify(e)}`);
    check(isBlob(e.blob) && e.blob === blobOf(readFileSync(join(workspace, e.path))), `ls: blob of ${e.path}`);
    out(`ls ${e.path} ${e.kind} ${e.name} ${e.status} blob ok`);
    if (e.name === "Billing") billingBlob = e.blob;
  }
  check(billingBlob, "ls listed no Billing agent");
  names.set(billingBlob, "blob of agents/AGbilling01.json");

  const found = await call(client, "grep", { ref: ["Agents.Billing"] });
  for (const m of ofType(found, "match")) out(`grep ${m.path}:${m.line}:${m.column} ${m.kind} ${m.name} ${m.match}`);
  const grepSummary = only(ofType(found, "summary"), "summary");
  out(`grep summary: ${grepSummary.results} results in ${grepSummary.files_matched} files`);

  const file = only(await call(client, "read", { path: ROUTE }), "file");
  const original = bytesOnDisk(ROUTE);
  check(file.text === original, `read ${ROUTE}: the text is not the file's bytes`);
  check(isBlob(file.blob) && file.blob === blobOf(original), `read ${ROUTE}: blob ${file.blob}`);
  names.set(file.blob, "blob as read");
  out(`read ${file.path}: ${file.lines} lines, blob ok, first line ${file.text.split("\n")[0]}`);

  const broken = original.replace("Agents.Billing.Handoff", "Agents.Bxlling.Handoff");
  out(`write ${ROUTE} over another file's blob: ${shown(await refused(client, "write", { path: ROUTE, content: broken, expected: billingBlob }))}`);
  check(bytesOnDisk(ROUTE) === original, `${ROUTE} changed on a refused write`);

  const brokenBlob = await write(client, out, ROUTE, broken, file.blob);
  names.set(brokenBlob, "blob as broken");
  await build(client, out);

  const fixed = original.replace("    // The billing agent takes over from here.\n",
                                 "    // The billing agent takes over from here, with the whole ticket.\n");
  check(fixed !== original, "the fix changes nothing");
  out(`write ${ROUTE} over the first read's blob: ${shown(await refused(client, "write", { path: ROUTE, content: fixed, expected: file.blob }))}`);
  await write(client, out, ROUTE, fixed, brokenBlob);
  await build(client, out);

  names.set(await write(client, out, REFUND, REFUND_TEXT, "absent"), "blob as written");
  out(`write ${REFUND} over absent again: ${shown(await refused(client, "write", { path: REFUND, content: "x\n", expected: "absent" }))}`);
  check(bytesOnDisk(REFUND) === REFUND_TEXT, `${REFUND} changed on a refused write`);

  const digest = bytesOnDisk(DIGEST);
  const pending = only(await call(client, "delete", { path: DIGEST }), "delete-pending");
  check(pending.path === DIGEST, `delete-pending names ${pending.path}`);
  check(pending.blob === blobOf(digest), `delete-pending blob ${pending.blob}`);
  check(typeof pending.token === "string" && pending.token.length >= 16, `delete-pending token ${JSON.stringify(pending.token)}`);
  check(onDisk(DIGEST), `${DIGEST} is gone after the first delete call`);
  names.set(pending.token, "the token").set(pending.blob, "blob of the task");
  out(`delete ${DIGEST}: delete-pending, blob ok, token given, the file still on disk`);
  out(`delete prompts/PRtone01.md with that token: ${shown(await refused(client, "delete", { path: "prompts/PRtone01.md", token: pending.token }))}`);
  check(onDisk("prompts/PRtone01.md"), "prompts/PRtone01.md is gone");
  const last = pending.token[pending.token.length - 1];
  const wrong = pending.token.slice(0, -1) + (last === "0" ? "1" : "0");
  names.set(wrong, "a wrong token");
  out(`delete ${DIGEST} with a wrong token: ${shown(await refused(client, "delete", { path: DIGEST, token: wrong }))}`);
  check(onDisk(DIGEST), `${DIGEST} is gone after a wrong token`);
  const deleted = only(await call(client, "delete", { path: DIGEST, token: pending.token }), "deleted");
  check(deleted.path === DIGEST, `deleted names ${deleted.path}`);
  check(!onDisk(DIGEST), `${DIGEST} is still on disk`);
  out(`delete ${DIGEST} with its token: deleted, gone from disk`);
  out(`delete ${DIGEST} with the used token: ${shown(await refused(client, "delete", { path: DIGEST, token: pending.token }))}`);

  for (const e of await call(client, "ls", { changed: true })) {
    check(e.type === "entry", `ls changed: ${JSON.stringify(e)}`);
    out(`ls changed ${e.path} ${e.kind} ${e.name} ${e.status}`);
  }

  const proposal = only(await call(client, "commit", { message: "Refunds: a prompt, the route's comment, no digest" }), "proposal");
  check(isBlob(proposal.id), `proposal id ${proposal.id}`);
  out(`commit: proposal, id ok, session ${proposal.session}, branch ${proposal.branch}, supersedes ${proposal.supersedes ?? "none"}`);
  for (const f of proposal.files) out(`commit file ${f.status} ${f.path} +${f.additions} -${f.deletions}`);

  out(`closed, server exit ${await close(agent)}`);
});
