// listbench: one plain JSON-RPC client driving MCP servers over stdio.
//
// Usage: node listbench.mjs [-calls N] [-rounds R] [-method M] [-params JSON] NAME=COMMAND...
//
// For each round, for each server in turn (so that the servers alternate
// and share the machine's state), it starts COMMAND (split on spaces),
// initializes, sends N sequential requests of method M (default
// tools/list) with params P, each one after the previous answer, and
// reports the calls per second, the mean time per call and the size of one
// answer. The client does no JSON work on the answers beyond finding the
// end of the line and checking the first answer, so the figures are the
// servers' (plus the pipe). The server is killed after its round.
import { spawn } from "node:child_process";

const args = process.argv.slice(2);
let calls = 2000, rounds = 3, method = "tools/list", params = null;
const servers = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "-calls") calls = Number(args[++i]);
  else if (a === "-rounds") rounds = Number(args[++i]);
  else if (a === "-method") method = args[++i];
  else if (a === "-params") params = JSON.parse(args[++i]);
  else if (a.includes("=")) {
    const [name, ...rest] = a.split("=");
    servers.push({ name, cmd: rest.join("=").split(" ").filter(Boolean) });
  } else {
    console.error("usage: node listbench.mjs [-calls N] [-rounds R] [-method M] [-params JSON] NAME=COMMAND...");
    process.exit(2);
  }
}
if (servers.length === 0) {
  console.error("listbench: no servers");
  process.exit(2);
}

// start spawns a server and returns a function sending one message and
// resolving with the next line it writes to stdout.
function start(cmd) {
  const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "ignore"], env: process.env });
  let buf = "";
  let waiting = null;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buf += chunk;
    let nl;
    while (waiting && (nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = waiting;
      waiting = null;
      w(line);
    }
  });
  const send = (msg, expectAnswer = true) =>
    new Promise((resolve) => {
      if (expectAnswer) waiting = resolve;
      child.stdin.write(msg + "\n");
      if (!expectAnswer) resolve(null);
    });
  return { child, send };
}

async function round(server) {
  const { child, send } = start(server.cmd);
  const init = await send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "listbench", version: "0" } } }));
  if (!JSON.parse(init).result) throw new Error(`${server.name}: initialize failed: ${init}`);
  await send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), false);
  const req = (id) => JSON.stringify(params === null ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
  const first = await send(req(1));
  const parsed = JSON.parse(first);
  if (!parsed.result) throw new Error(`${server.name}: ${method} failed: ${first.slice(0, 300)}`);
  const size = Buffer.byteLength(first);
  const t0 = process.hrtime.bigint();
  for (let id = 2; id < calls + 2; id++) await send(req(id));
  const ns = Number(process.hrtime.bigint() - t0);
  child.kill("SIGKILL");
  return { perSec: calls / (ns / 1e9), msPerCall: ns / 1e6 / calls, size };
}

const results = Object.fromEntries(servers.map((s) => [s.name, []]));
for (let r = 1; r <= rounds; r++) {
  for (const s of servers) {
    const res = await round(s);
    results[s.name].push(res);
    console.log(`round ${r} ${s.name}: ${res.perSec.toFixed(0)} calls/s, ${(res.msPerCall * 1000).toFixed(0)} µs/call, answer ${res.size} bytes`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\n${method}, ${calls} sequential calls x ${rounds} rounds, median of rounds:`);
for (const s of servers) {
  const rs = results[s.name];
  console.log(`  ${s.name.padEnd(14)} ${median(rs.map((x) => x.perSec)).toFixed(0).padStart(7)} calls/s  ` +
    `${(median(rs.map((x) => x.msPerCall)) * 1000).toFixed(0).padStart(6)} µs/call  answer ${rs[0].size} bytes`);
}
