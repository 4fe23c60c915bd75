// What the MCP client scripts share: a connection to `ws mcp` made by the
// official SDK's Client and StdioClientTransport, and the checks every tool
// answer must pass (docs/mcp.md, Tools). A failed check throws; the scripts
// print one transcript line per step on stdout.
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export class Failure extends Error {}

export function fail(message) {
  throw new Failure(message);
}

export function check(condition, message) {
  if (!condition) fail(message);
}

// The blob id git gives `bytes` (git hash-object).
export function blobOf(bytes) {
  const body = Buffer.from(bytes);
  return createHash("sha1").update(`blob ${body.length}\0`).update(body).digest("hex");
}

export function isBlob(id) {
  return typeof id === "string" && /^[0-9a-f]{40}$/.test(id);
}

// Every connection made, for the report at the end.
const connections = [];

// A connection as an agent's client makes one: `ws mcp --session SESSION`
// started in the workspace's folder. The server gets this process's
// environment (the tests' kind pack and sanitizer options), not only the
// SDK's short default list. Its standard error is kept for the report.
export async function connect(ws, workspace, session, name = session) {
  const transport = new StdioClientTransport({
    command: ws,
    args: ["mcp", "--session", session],
    cwd: workspace,
    env: { ...process.env },
    stderr: "pipe",
  });
  const connection = { session, transport, stderr: "" };
  connections.push(connection);
  transport.stderr.on("data", (chunk) => {
    connection.stderr += chunk;
  });
  const client = new Client({ name: `ws-test-${name}`, version: "1.0.0" });
  await client.connect(transport);
  // The child process, to learn how the server exits: the transport of the
  // pinned SDK keeps it in _process and drops it when it closes.
  const child = transport._process;
  check(child, "the transport holds no child process after connect");
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode);
    else child.once("exit", (code, signal) => resolve(signal ?? code));
  });
  return Object.assign(connection, { client, exited });
}

// Closes the client (stdin ends; the SDK sends SIGTERM after 2 s, SIGKILL
// after 4) and answers how the server exited: 0, another status, or the
// signal's name.
export async function close(connection) {
  await connection.client.close();
  return await connection.exited;
}

function textOf(result) {
  check(Array.isArray(result.content), `no content array: ${JSON.stringify(result)}`);
  check(result.content.length === 1 && result.content[0].type === "text",
        `content is not one text item: ${JSON.stringify(result.content)}`);
  return result.content[0].text;
}

// A tool call that must succeed: its records. The SDK has checked
// structuredContent against the tool's outputSchema (callTool does, once
// listTools has run); the text must be the same JSON.
export async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  check(!result.isError, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(result.content)}`);
  const structured = result.structuredContent;
  check(structured && Array.isArray(structured.records),
        `${name}: no structuredContent records: ${JSON.stringify(result)}`);
  let parsed;
  try {
    parsed = JSON.parse(textOf(result));
  } catch (e) {
    fail(`${name}: the text is not JSON: ${e.message}`);
  }
  check(JSON.stringify(parsed) === JSON.stringify(structured),
        `${name}: the text is not the structuredContent: ${textOf(result)}`);
  for (const r of structured.records) {
    check(r && typeof r.type === "string" && r.version === 1, `${name}: a record without type and version 1: ${JSON.stringify(r)}`);
  }
  return structured.records;
}

// A tool call that must be refused: isError, and the one line the server
// gives as its text.
export async function refused(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  check(result.isError === true, `${name} ${JSON.stringify(args)} was not refused: ${JSON.stringify(result)}`);
  const text = textOf(result);
  check(text.length > 0 && !text.includes("\n"), `${name}: the error is not one line: ${JSON.stringify(text)}`);
  return text;
}

// The records of `type` in `records`.
export function ofType(records, type) {
  return records.filter((r) => r.type === type);
}

// The one record of `type`, which must be the only record.
export function only(records, type) {
  check(records.length === 1 && records[0].type === type,
        `expected one ${type} record: ${JSON.stringify(records)}`);
  return records[0];
}

// Runs `main(out)`, where out(line) prints a transcript line, then copies
// each server's standard error to this one's. When a check or the SDK
// throws, exits 1 with the failure on standard error (a server still
// running then sees its input end).
export async function runScript(main) {
  const out = (line) => process.stdout.write(`${line}\n`);
  let failure = null;
  try {
    await main(out);
  } catch (e) {
    failure = e instanceof Failure ? e.message : e.stack || String(e);
  }
  if (failure !== null) await new Promise((resolve) => setTimeout(resolve, 200));  // the last of a dying server's output
  for (const c of connections) {
    if (c.stderr) process.stderr.write(`[ws mcp --session ${c.session}, standard error]\n${c.stderr}`);
  }
  if (failure !== null) {
    process.stderr.write(`FAILED: ${failure}\n`);
    process.exit(1);
  }
}
