// firstcall: what the TypeScript SDK client's first listTools costs, in
// parts, each run in a fresh Node process (as a client starting up):
// "request" is the first tools/list request with the SDK's result schema
// (the pipe, JSON.parse and the client's zod parse: no Ajv), "compile" the
// client compiling the tools' output schemas with its default Ajv
// validator (what listTools does after the request), "first" the two
// together as listTools does them, and "second" the next listTools (the
// schemas are found by $id, not compiled again).
//
// Usage: node firstcall.mjs [-runs N] COMMAND [ARGS...]
// Prints the median of N runs (default 7) of each part.
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";

const args = process.argv.slice(2);
let runs = 7;
if (args[0] === "-runs") {
  runs = Number(args[1]);
  args.splice(0, 2);
}
if (args.length === 0) {
  console.error("usage: node firstcall.mjs [-runs N] COMMAND [ARGS...]");
  process.exit(2);
}

if (process.env.FIRSTCALL_CHILD) {
  const transport = new StdioClientTransport({ command: args[0], args: args.slice(1), stderr: "ignore" });
  const client = new Client({ name: "firstcall", version: "0" });
  await client.connect(transport);
  const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
  const out = {};
  if (process.env.FIRSTCALL_CHILD === "parts") {
    let t0 = process.hrtime.bigint();
    const res = await client.request({ method: "tools/list" }, ListToolsResultSchema);
    out.request = ms(t0);
    t0 = process.hrtime.bigint();
    client.cacheToolMetadata(res.tools);
    out.compile = ms(t0);
  } else {
    let t0 = process.hrtime.bigint();
    await client.listTools();
    out.first = ms(t0);
    t0 = process.hrtime.bigint();
    await client.listTools();
    out.second = ms(t0);
  }
  await client.close();
  console.log(JSON.stringify(out));
  process.exit(0);
}

const samples = {};
for (let i = 0; i < runs; i++) {
  for (const mode of ["parts", "whole"]) {
    const r = spawnSync(process.execPath, [process.argv[1], ...args], {
      env: { ...process.env, FIRSTCALL_CHILD: mode },
      encoding: "utf8",
    });
    if (r.status !== 0) {
      console.error(r.stderr);
      process.exit(1);
    }
    for (const [k, v] of Object.entries(JSON.parse(r.stdout.trim().split("\n").pop()))) {
      (samples[k] ??= []).push(v);
    }
  }
}
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `first listTools in a fresh client, median of ${runs} runs: ` +
    ["first", "request", "compile", "second"].map((k) => `${k} ${median(samples[k]).toFixed(2)} ms`).join(", "),
);
