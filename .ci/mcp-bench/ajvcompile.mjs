// ajvcompile: how long the TypeScript SDK's validator (Ajv 8 with the SDK's
// options: allErrors, formats) takes to compile the output schemas of a
// tools/list answer, as a client does on its first listTools.
//
// Usage: node ajvcompile.mjs [-cold] NAME=ANSWER.json...
// Each ANSWER.json is one JSON-RPC tools/list response. For each answer it
// also measures the same schemas with nullability written as type arrays
// (anyOf [{type:T}, {type:"null"}] -> type [T, "null"]), to show what the
// anyOf form costs. Ajv is warmed up first; the median of 40 alternating
// rounds is printed, each round compiling all schemas in a fresh Ajv.
// With -cold, each variant is compiled once in a fresh Node process (as
// a client's first listTools does, before Ajv's own code is warm), and the
// median of 7 processes is printed, with a one-property schema as the
// floor ("trivial").
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const mk = () => {
  const a = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  addFormats(a);
  return a;
};
const clone = (x) => JSON.parse(JSON.stringify(x));
function toTypeArrays(s) {
  if (!s || typeof s !== "object") return s;
  for (const k of ["properties", "$defs"]) if (s[k]) for (const v of Object.values(s[k])) toTypeArrays(v);
  for (const k of ["items", "additionalProperties"]) if (s[k]) toTypeArrays(s[k]);
  if (Array.isArray(s.anyOf) && s.anyOf.length === 2 && s.anyOf[1].type === "null" && s.anyOf[0].type && !s.anyOf[0].$ref) {
    const b = s.anyOf[0];
    delete s.anyOf;
    Object.assign(s, b, { type: [b.type, "null"] });
  }
  return s;
}
const argv = process.argv.slice(2);
const cold = argv[0] === "-cold";
if (cold) argv.shift();
const variants = {};
for (const a of argv) {
  const [name, file] = a.split("=");
  const schemas = JSON.parse(readFileSync(file)).result.tools.map((t) => t.outputSchema).filter(Boolean)
    .map((s) => { delete s.$id; return s; });
  variants[name] = schemas;
  if (JSON.stringify(schemas).includes('"anyOf"')) variants[name + " (type arrays)"] = schemas.map((s) => toTypeArrays(clone(s)));
}
if (process.env.AJVCOMPILE_VARIANT) {
  const ss = process.env.AJVCOMPILE_VARIANT === "trivial"
    ? [{ type: "object", properties: { greeting: { type: "string" } } }]
    : variants[process.env.AJVCOMPILE_VARIANT];
  const a = mk();
  const t0 = process.hrtime.bigint();
  for (const s of ss) a.compile(s);
  console.log(Number(process.hrtime.bigint() - t0) / 1e6);
  process.exit(0);
}
if (cold) {
  for (const k of ["trivial", ...Object.keys(variants)]) {
    const ts = [];
    for (let i = 0; i < 7; i++) {
      const r = spawnSync(process.execPath, [process.argv[1], ...argv], {
        env: { ...process.env, AJVCOMPILE_VARIANT: k }, encoding: "utf8" });
      ts.push(Number(r.stdout.trim()));
    }
    ts.sort((a, b) => a - b);
    const n = k === "trivial" ? 1 : variants[k].length;
    console.log(`${k.padEnd(24)} cold compile of ${n} output schemas in a fresh process: median ${ts[3].toFixed(1)} ms, min ${ts[0].toFixed(1)} ms`);
  }
  process.exit(0);
}
for (let i = 0; i < 20; i++) for (const ss of Object.values(variants)) { const a = mk(); for (const s of ss) a.compile(clone(s)); }
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let r = 0; r < 40; r++) {
  for (const [k, ss] of Object.entries(variants)) {
    const a = mk();
    const cs = ss.map(clone);
    const t0 = process.hrtime.bigint();
    for (const s of cs) a.compile(s);
    times[k].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
for (const [k, ts] of Object.entries(times)) {
  ts.sort((a, b) => a - b);
  console.log(`${k.padEnd(24)} compile ${variants[k].length} output schemas: median ${ts[20].toFixed(1)} ms, min ${ts[0].toFixed(1)} ms`);
}
