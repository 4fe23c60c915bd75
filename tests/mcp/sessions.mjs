// Two agents at once through `ws mcp`, each with its own session
// (docs/mcp.md, Sessions): both connected together, each editing its own
// file, both committing at the same time; then agent-one commits again,
// which supersedes its own proposal and not agent-two's.
//   node sessions.mjs WS WORKSPACE    (or WS_MCP_BIN and WS_MCP_WORKSPACE)
// WORKSPACE holds the example workspace, committed. One line a step on
// standard output; exit 1 at the first failed check.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { blobOf, call, check, close, connect, isBlob, only, runScript } from "./client.mjs";

const ws = process.argv[2] ?? process.env.WS_MCP_BIN;
const workspace = process.argv[3] ?? process.env.WS_MCP_WORKSPACE;
if (!ws || !workspace) {
  process.stderr.write("usage: node sessions.mjs WS WORKSPACE\n");
  process.exit(2);
}

const bytesOnDisk = (path) => readFileSync(join(workspace, path), "utf8");

// Reads `path`, replaces `from` by `to` in it and writes it back over the
// blob read.
async function edit(agent, path, from, to) {
  const file = only(await call(agent.client, "read", { path }), "file");
  check(file.text.includes(from), `${path} does not hold ${JSON.stringify(from)}`);
  const content = file.text.replace(from, to);
  const written = only(await call(agent.client, "write", { path, content, expected: file.blob }), "written");
  check(written.blob === blobOf(content) && bytesOnDisk(path) === content, `${agent.session}: ${path} is not as written`);
  return `${agent.session} wrote ${path}`;
}

async function commit(agent, message) {
  const p = only(await call(agent.client, "commit", { message }), "proposal");
  check(isBlob(p.id), `proposal id ${p.id}`);
  const lines = [`${agent.session} commit: proposal, session ${p.session}, supersedes ${p.supersedes ?? "none"}`];
  for (const f of p.files) lines.push(`${agent.session} commit file ${f.status} ${f.path} +${f.additions} -${f.deletions}`);
  return { proposal: p, lines };
}

await runScript(async (out) => {
  const agents = await Promise.all(["agent-one", "agent-two"].map((s) => connect(ws, workspace, s)));
  const [one, two] = agents;
  for (const a of agents) {
    check((a.client.getInstructions() ?? "").includes(a.session), `${a.session}: the instructions do not name it`);
    await a.client.listTools();  // the output schemas every callTool is checked against
    out(`${a.session} connected`);
  }

  for (const line of await Promise.all([
    edit(one, "prompts/PRtone01.md", "Be brief and kind.", "Be brief, kind and exact."),
    edit(two, "skills/SKsummarize01.md", "what is next.", "what is next. Leave names out."),
  ])) out(line);

  const [first, second] = await Promise.all([commit(one, "Tone: exact"), commit(two, "Summaries: no names")]);
  for (const c of [first, second]) for (const line of c.lines) out(line);
  check(first.proposal.id !== second.proposal.id, "both sessions staged the same proposal");

  out(await edit(one, "prompts/PRtone01.md", "kind and exact.", "kind, exact and calm."));
  const again = await commit(one, "Tone: calm too");
  check(again.proposal.supersedes === first.proposal.id,
        `agent-one's second proposal supersedes ${again.proposal.supersedes}, not its first`);
  for (const line of again.lines) out(line.replace(/supersedes [0-9a-f]{40}$/, "supersedes agent-one's first"));

  const exits = await Promise.all(agents.map(close));
  agents.forEach((a, i) => out(`${a.session} closed, server exit ${exits[i]}`));
});
