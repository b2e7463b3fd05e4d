// MCP interop check: drives the built example server with the official
// TypeScript MCP SDK client, over Streamable HTTP and over stdio.
//
// Usage: node client.mjs <server-binary> <brreg-fixtures-dir>
//
// It starts a fake Enhetsregisteret on 127.0.0.1 that serves recorded
// answers, starts the server on a free loopback port (-addr 127.0.0.1:0; the
// address read from its "listening" log record) with BRREG_BASE_URL
// pointing at the fake and change monitoring's store in a temporary
// REGISTRY_DATA_DIR, and checks: the six read tools and company_changes are
// listed with output schemas and annotations; every tool answers (the TS
// client validates each structuredContent against the tool's outputSchema);
// failures are isError
// results whose text is the REST error envelope; the documents equal the
// REST bodies; the rules resource reads; the prompt renders. Any mismatch
// exits non-zero. Child processes are killed on exit.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import http from "node:http";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const [serverBin, fixtures] = process.argv.slice(2);
if (!serverBin || !fixtures) {
  console.error("usage: node client.mjs <server-binary> <brreg-fixtures-dir>");
  process.exit(2);
}

const TOOLS = ["company_deadlines", "company_roles", "list_countries", "lookup_company", "search_company", "validate_company_id"];
const OPEN_WORLD = new Set(["company_roles", "lookup_company", "search_company", "company_deadlines"]);
const children = [];
const pidFile = process.env.MCP_INTEROP_PIDS;
function track(pid) {
  children.push(pid);
  if (pidFile) writeFileSync(pidFile, children.join("\n") + "\n");
}
process.on("exit", () => children.forEach((pid) => { try { process.kill(pid, "SIGKILL"); } catch {} }));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(1));

// A fake Enhetsregisteret answering from recordings, loopback only.
function fakeBrreg() {
  const read = (f) => readFileSync(join(fixtures, f));
  const equinor = read("enhet_923609016.json");
  const digdir = read("search_digitaliseringsdirektoratet.json");
  const empty = read("search_empty.json");
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const send = (body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(body);
    };
    if (url.pathname === "/enheter/923609016") return send(equinor);
    if (url.pathname === "/enheter" && url.searchParams.has("navn")) {
      return send(url.searchParams.get("navn").toLowerCase().includes("digitaliseringsdirektoratet") ? digdir : empty);
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => srv.listen(0, "127.0.0.1", () => resolve(srv)));
}

async function waitHealthy(base) {
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(base + "/health");
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not become healthy at " + base);
}

function ok(res, what) {
  assert.equal(res.isError ?? false, false, `${what}: isError: ${res.content?.[0]?.text}`);
  assert.equal(res.content.length, 1, `${what}: one content item`);
  assert.equal(res.content[0].type, "text", `${what}: text content`);
  const doc = JSON.parse(res.content[0].text);
  assert.deepEqual(res.structuredContent, doc, `${what}: structuredContent equals the text`);
  return doc;
}

function fails(res, code, what) {
  assert.equal(res.isError, true, `${what}: want isError, got ${JSON.stringify(res)}`);
  const env = JSON.parse(res.content[0].text);
  assert.equal(env.error.code, code, `${what}: error code`);
  assert.ok(env.error.hint, `${what}: the envelope has a hint`);
  assert.deepEqual(Object.keys(env.error).sort(), ["code", "country", "details", "hint", "message", "registry"]);
  return env;
}

// exercise runs every check that works on any transport; rest is the
// server's base URL when the REST surface is reachable (HTTP run).
async function exercise(client, label, rest) {
  const step = (s) => console.log(`   ${label}: ${s}`);
  const info = client.getServerVersion();
  assert.equal(info.name, "io.github.companyregistry/registry");
  assert.match(client.getInstructions() ?? "", /list_countries/);
  assert.match(client.getInstructions() ?? "", /GB, never UK/);

  // The example server keeps change monitoring on (its store in the
  // REGISTRY_DATA_DIR this run sets, on both transports) and serves
  // company_changes beside the six read tools.
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOLS, "company_changes"].sort());
  for (const t of tools) {
    assert.ok(t.title && t.description, `${t.name}: title and description`);
    assert.equal(t.outputSchema?.type, "object", `${t.name}: outputSchema`);
    assert.equal(t.annotations?.readOnlyHint, true, `${t.name}: readOnlyHint`);
    assert.equal(t.annotations?.idempotentHint, true, `${t.name}: idempotentHint`);
    assert.equal(t.annotations?.destructiveHint, false, `${t.name}: destructiveHint`);
    assert.equal(t.annotations?.openWorldHint, OPEN_WORLD.has(t.name), `${t.name}: openWorldHint`);
  }
  step(`tools/list: ${tools.length} tools with output schemas and annotations`);

  // Portable schemas: no type arrays anywhere (nullability is anyOf with
  // {"type":"null"}), nested resources in $defs, a content-addressed $id
  // (the client compiles each output schema once), and the validator the
  // client uses still refuses a document of the wrong shape.
  for (const t of tools) {
    const json = JSON.stringify([t.inputSchema, t.outputSchema]);
    assert.ok(!/"type":\[/.test(json), `${t.name}: a type array in its schemas`);
    assert.match(t.outputSchema.$id ?? "", /^urn:companyregistry:schema:\w+:[0-9a-f]{16}$/, `${t.name}: outputSchema $id`);
  }
  const lookupSchema = tools.find((t) => t.name === "lookup_company").outputSchema;
  assert.ok(lookupSchema.$defs?.Address, "lookup_company: Address in $defs");
  assert.equal(lookupSchema.properties.postal_address.anyOf[0].$ref, "#/$defs/Address");
  const again = await client.listTools();
  assert.deepEqual(again.tools, tools, "a second tools/list is the same");
  step("tools/list: portable output schemas ($defs, anyOf null, $id), stable");

  const call = (name, args) => client.callTool({ name, arguments: args });
  const restGet = async (path) => {
    const r = await fetch(rest + path);
    return { status: r.status, body: await r.json() };
  };

  const countries = ok(await call("list_countries", {}), "list_countries");
  assert.ok(countries.countries.some((c) => c.country === "NO"), "list_countries has NO");

  const valid = ok(await call("validate_company_id", { id: "923 609 016" }), "validate ok");
  assert.equal(valid.valid, true);
  assert.equal(valid.normalized, "923609016");
  const invalid = ok(await call("validate_company_id", { id: "923609017", country: "no" }), "validate invalid");
  assert.equal(invalid.valid, false);
  fails(await call("validate_company_id", { id: "00445790", country: "UK" }), "unsupported_country", "validate UK");

  const report = ok(await call("lookup_company", { id: "923609016" }), "lookup");
  assert.equal(report.name, "EQUINOR ASA");
  {
    const check = new AjvJsonSchemaValidator().getValidator(lookupSchema);
    assert.equal(check(report).valid, true, "the report validates against lookup_company's outputSchema");
    for (const bad of [{ ...report, name: null }, { ...report, postal_address: { lines: "x" } }, { ...report, status: "alive" },
      { ...report, website: 1 }]) {
      assert.equal(check(bad).valid, false, `a wrong report is refused: ${JSON.stringify(bad).slice(0, 80)}`);
    }
  }
  assert.equal(report.country, "NO");
  fails(await call("lookup_company", { id: "923609017" }), "invalid_id", "lookup invalid_id");
  fails(await call("lookup_company", { id: "974760673" }), "not_found", "lookup not_found");

  const hits = ok(await call("search_company", { name: "Digitaliseringsdirektoratet", limit: 1 }), "search");
  assert.equal(hits.hits.length, 1);
  const none = ok(await call("search_company", { name: "foobarbaz" }), "search no hits");
  assert.deepEqual(none.hits, []);
  assert.ok(none.hint, "a zero-hit search has a hint");
  fails(await call("search_company", { name: "equinor", limit: 0 }), "bad_request", "search limit 0");

  const dl = ok(await call("company_deadlines", { id: "923609016", country: "NO", today: "2026-01-15" }), "deadlines");
  assert.equal(dl.today, "2026-01-15");
  assert.equal(dl.company_id, "923609016");
  assert.ok(Array.isArray(dl.deadlines) && dl.deadlines.length > 0, "an ASA has deadlines");
  fails(await call("company_deadlines", { id: "923609016", today: "15.01.2026" }), "bad_request", "deadlines bad today");
  // A fresh store has recorded nothing of the company: an empty list with
  // a note, in company_changes' outputSchema.
  const changes = ok(await call("company_changes", { id: "923609016" }), "changes");
  assert.equal(changes.company_id, "923609016");
  assert.deepEqual(changes.changes, []);
  fails(await call("company_changes", { id: "923609017" }), "invalid_id", "changes invalid_id");
  step("tools/call: every tool, successes and error envelopes");

  if (rest) {
    const same = async (path, doc, what) => {
      const { body } = await restGet(path);
      const strip = (o) => ({ ...o, cached: undefined });
      assert.deepEqual(strip(doc), strip(body), `${what}: MCP document equals the REST body`);
    };
    await same("/v1/NO/company/923609016", report, "lookup");
    await same("/v1/NO/validate/923609017", invalid, "validate");
    await same("/v1/NO/search?q=Digitaliseringsdirektoratet&limit=1", hits, "search");
    await same("/v1/NO/company/923609016/deadlines?today=2026-01-15", dl, "deadlines");
    await same("/v1/countries", countries, "countries");
    await same("/v1/NO/company/923609016/changes", changes, "changes");
    const nf = await restGet("/v1/NO/company/974760673");
    const env = JSON.parse((await call("lookup_company", { id: "974760673" })).content[0].text);
    assert.deepEqual(env, nf.body, "not_found: the MCP envelope equals the REST body");
    step("parity: MCP documents equal the REST bodies");
  }

  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "registry://rules/NO" && r.mimeType === "text/markdown"), "rules_no listed");
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.ok(resourceTemplates.some((t) => t.uriTemplate === "registry://rules/{country}"), "template listed");
  const rules = await client.readResource({ uri: "registry://rules/NO" });
  assert.equal(rules.contents[0].mimeType, "text/markdown");
  assert.ok(rules.contents[0].text.length > 200, "the NO rules document has content");
  await assert.rejects(client.readResource({ uri: "registry://rules/UK" }), /unsupported_country/);
  step("resources: listed, template, read registry://rules/NO, UK rejected");

  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ["explain_company"]);
  const prompt = await client.getPrompt({ name: "explain_company", arguments: { id: "923609016" } });
  const text = prompt.messages[0].content.text;
  for (const w of ["lookup_company", "company_deadlines", "VAT", "notes"]) assert.ok(text.includes(w), `prompt mentions ${w}`);
  step("prompts: explain_company");
}

async function main() {
  const upstream = await fakeBrreg();
  const dataDir = mkdtempSync(join(tmpdir(), "mcp-interop-data-"));
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    ...process.env, BRREG_BASE_URL: `http://127.0.0.1:${upstream.address().port}`, REGISTRY_RATE_LIMIT: "0",
    REGISTRY_DATA_DIR: dataDir,
  };
  delete env.COMPANIES_HOUSE_API_KEY;

  // Streamable HTTP, at /mcp and at /mcp/, on a port the server picks:
  // its "listening" record says which.
  const server = spawn(serverBin, ["-addr", "127.0.0.1:0"], { env, stdio: ["ignore", "inherit", "pipe"] });
  track(server.pid);
  let serverLog = "";
  const listening = new Promise((resolve, reject) => {
    server.stderr.on("data", (d) => {
      serverLog += d;
      const m = serverLog.match(/"msg":"listening","addr":"([^"]+)"/);
      if (m) resolve(`http://${m[1]}`);
    });
    server.on("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  server.on("exit", (code) => code && console.error(`server exited with ${code}:\n${serverLog}`));
  try {
    const base = await listening;
    await waitHealthy(base);
    for (const path of ["/mcp", "/mcp/"]) {
      const client = new Client({ name: "interop-check", version: "0.0.1" });
      const transport = new StreamableHTTPClientTransport(new URL(base + path));
      await client.connect(transport);
      console.log(`== Streamable HTTP ${base + path} (protocol ${transport.protocolVersion ?? "negotiated"})`);
      await exercise(client, "http" + path, path === "/mcp" ? base : undefined);
      await client.close();
    }
  } catch (e) {
    console.error(serverLog);
    throw e;
  }
  server.kill();

  // stdio: the same binary with -stdio.
  console.log("== stdio " + serverBin + " -stdio");
  const transport = new StdioClientTransport({ command: serverBin, args: ["-stdio"], env, stderr: "pipe" });
  let stdioLog = "";
  transport.stderr?.on("data", (d) => (stdioLog += d));
  const client = new Client({ name: "interop-check", version: "0.0.1" });
  try {
    await client.connect(transport);
    if (transport.pid) track(transport.pid);
    await exercise(client, "stdio");
  } catch (e) {
    console.error(stdioLog);
    throw e;
  }
  await client.close();
  upstream.close();
  console.log("MCP interop: OK");
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error("MCP interop FAILED:", e);
    process.exit(1);
  },
);
