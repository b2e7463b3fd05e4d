#!/usr/bin/env bash
# MCP interop check: builds the example server and drives it with the official
# TypeScript MCP SDK client (@modelcontextprotocol/sdk, installed from npm into
# the git-ignored .tools/) over Streamable HTTP and over stdio. A fake
# Enhetsregisteret on 127.0.0.1 serves recorded answers, so nothing but the npm
# registry is reached. Bounded in time; every process it starts dies with it.
set -euo pipefail
cd "$(dirname "$0")/.."

SDK_VERSION=1.32.2
dir=.tools/mcp-interop

command -v node >/dev/null || { echo "mcp-interop: node is required (Node >= 18)"; exit 1; }
command -v npm >/dev/null || { echo "mcp-interop: npm is required"; exit 1; }
echo "node $(node --version), npm $(npm --version)"

mkdir -p "$dir"
if [ "$(node -p "try{require('./$dir/node_modules/@modelcontextprotocol/sdk/package.json').version}catch{''}")" != "$SDK_VERSION" ]; then
  [ -f "$dir/package.json" ] || echo '{"name":"mcp-interop","private":true,"type":"module"}' >"$dir/package.json"
  timeout 300 npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/sdk@$SDK_VERSION"
fi

go build -o "$dir/server" ./examples/server
cp .ci/mcp-interop/client.mjs "$dir/client.mjs"

# node kills the servers it starts when it exits; should node itself be
# killed, the trap kills them by the pids node recorded. timeout bounds it all.
export MCP_INTEROP_PIDS="$PWD/$dir/pids"
: >"$MCP_INTEROP_PIDS"
cleanup() {
  while read -r pid; do
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  done <"$MCP_INTEROP_PIDS"
}
trap cleanup EXIT
timeout --kill-after=10 120 node "$dir/client.mjs" "$PWD/$dir/server" "$PWD/.ci/mcp-interop/brreg"
