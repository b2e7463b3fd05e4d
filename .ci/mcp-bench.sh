#!/usr/bin/env bash
# MCP discovery benchmark (BENCHMARKS.md, "MCP discovery"): stdio tools/list
# throughput of this server, the Node companies-house-mcp 4.0.0 peer and the
# Go SDK's minimal server with one plain JSON-RPC client; the TypeScript SDK
# client's listTools time on this server, and its first listTools in parts
# (request, Ajv compile) in fresh processes; Ajv compiling the output
# schemas warm and cold; the MCP Inspector's --strict findings. Node 22 (for the peer and the Inspector), the SDK, the Inspector
# and the peer come from the npm registry into the git-ignored .tools/.
#
# Usage: .ci/mcp-bench.sh [BEFORE_REV]
# With a git revision, the server built from it is measured alongside.
# CALLS and ROUNDS (default 2000 and 3) set the tools/list run.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=.tools/mcp-bench
calls=${CALLS:-2000}
rounds=${ROUNDS:-3}
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"mcp-bench","private":true,"type":"module"}' >"$dir/package.json"
if [ ! -x "$dir/node_modules/.bin/node" ] || [ ! -d "$dir/node_modules/companies-house-mcp" ]; then
  timeout 600 npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
    node@22.23.3 @modelcontextprotocol/sdk@1.32.2 @modelcontextprotocol/inspector@2.12.0 companies-house-mcp@4.0.0
fi
export PATH="$PWD/$dir/node_modules/.bin:$PATH"
echo "node $(node --version); $(go version)"

go build -o "$dir/server" ./examples/server
go build -o "$dir/sdkminimal" ./.ci/mcp-bench/sdkminimal
cp .ci/mcp-bench/listbench.mjs .ci/mcp-bench/listtools.mjs .ci/mcp-bench/firstcall.mjs "$dir/"
servers=("this=$PWD/$dir/server -stdio")
if [ $# -gt 0 ]; then
  rm -rf "$dir/before-src" && mkdir -p "$dir/before-src"
  git archive "$1" | tar -x -C "$dir/before-src"
  (cd "$dir/before-src" && go build -o ../server-before ./examples/server)
  servers+=("before=$PWD/$dir/server-before -stdio")
fi
peer="env COMPANIES_HOUSE_API_KEY=dummy node $PWD/$dir/node_modules/companies-house-mcp/dist/index.js"
servers+=("node-peer=$peer" "sdk-minimal=$PWD/$dir/sdkminimal")

echo "== stdio tools/list, one JSON-RPC client, $calls sequential calls x $rounds rounds"
timeout 1200 node "$dir/listbench.mjs" -calls "$calls" -rounds "$rounds" "${servers[@]}"

echo "== TypeScript SDK client listTools over stdio"
timeout 300 node "$dir/listtools.mjs" "$PWD/$dir/server" -stdio
[ $# -gt 0 ] && timeout 300 node "$dir/listtools.mjs" "$PWD/$dir/server-before" -stdio | sed 's/^/before: /'
echo "== TypeScript SDK client: the first listTools in a fresh client, in parts"
timeout 300 node "$dir/firstcall.mjs" "$PWD/$dir/server" -stdio | sed 's/^/this: /'
[ $# -gt 0 ] && timeout 300 node "$dir/firstcall.mjs" "$PWD/$dir/server-before" -stdio | sed 's/^/before: /'
timeout 300 node "$dir/firstcall.mjs" "$PWD/$dir/sdkminimal" | sed 's/^/sdk-minimal: /'

echo "== Ajv (the TS SDK's validator) compiling the output schemas"
answer() {
  { printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}' \
      '{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'; sleep 2; } |
    timeout 30 "$1" -stdio 2>/dev/null | sed -n 2p >"$2"
}
answer "$PWD/$dir/server" "$dir/tools-this.json"
answers=("this=$dir/tools-this.json")
if [ $# -gt 0 ]; then
  answer "$PWD/$dir/server-before" "$dir/tools-before.json"
  answers+=("before=$dir/tools-before.json")
fi
cp .ci/mcp-bench/ajvcompile.mjs "$dir/"
timeout 600 node "$dir/ajvcompile.mjs" "${answers[@]}"
timeout 600 node "$dir/ajvcompile.mjs" -cold "${answers[@]}"

echo "== MCP Inspector --strict on tools/list"
strict() {
  timeout 120 mcp-inspector --cli --format json -q "$1" -stdio --method tools/list --strict 2>&1 >/dev/null |
    awk '/^(Warning|Error):/ {n++} /errors?, [0-9]+ warnings?/ {s=$0} END {printf "%d findings%s\n", n, (s ? " (" s ")" : "")}'
}
echo "this: $(strict "$PWD/$dir/server")"
[ $# -gt 0 ] && echo "before: $(strict "$PWD/$dir/server-before")"
exit 0
