// listtools: times the official TypeScript SDK client's listTools against
// an MCP server over stdio. The client compiles every tool's outputSchema
// (to validate structuredContent later) on each listTools, so this is the
// discovery cost every TypeScript client pays.
//
// Usage: node listtools.mjs [-calls N] COMMAND [ARGS...]
// Prints the first call, and the median and p90 of the next N-1 calls.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = process.argv.slice(2);
let calls = 200;
if (args[0] === "-calls") {
  calls = Number(args[1]);
  args.splice(0, 2);
}
if (args.length === 0) {
  console.error("usage: node listtools.mjs [-calls N] COMMAND [ARGS...]");
  process.exit(2);
}
const transport = new StdioClientTransport({ command: args[0], args: args.slice(1), stderr: "ignore" });
const client = new Client({ name: "listtools", version: "0" });
await client.connect(transport);
const times = [];
let tools = 0;
for (let i = 0; i < calls; i++) {
  const t0 = process.hrtime.bigint();
  const res = await client.listTools();
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  tools = res.tools.length;
}
await client.close();
const rest = times.slice(1).sort((a, b) => a - b);
const q = (p) => rest[Math.min(rest.length - 1, Math.floor(p * rest.length))];
console.log(`listTools over stdio, ${tools} tools, ${calls} calls: first ${times[0].toFixed(2)} ms, ` +
  `median ${q(0.5).toFixed(2)} ms, p90 ${q(0.9).toFixed(2)} ms`);
