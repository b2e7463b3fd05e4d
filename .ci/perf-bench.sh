#!/usr/bin/env bash
# End-to-end performance benchmark of the example server (BENCHMARKS.md,
# "Performance II"), run on demand, never in CI: its figures are throughput
# and latency of real processes on a shared machine.
#
#   .ci/perf-bench.sh [BEFORE_REV]
#   PARTS="http stdio cold memory" ROUNDS=5 DURATION=10s CONNS=64 .ci/perf-bench.sh
#
# Everything runs on loopback, every process started here is stopped on
# exit, and every run is bounded (wrk by DURATION, the clients by count).
#   http    wrk (from Debian, installed when missing) with CONNS connections,
#           alternating in each of ROUNDS rounds: the bare ceiling (a plain
#           net/http handler serving the captured bytes and headers of the
#           cached answer, internal/cmd/perfbench bare), the cached REST
#           lookup GET /v1/NO/company/923609016 and the MCP tools/call of
#           lookup_company over Streamable HTTP; the server logs every
#           request at info to a file and its client rate limit is on at
#           REGISTRY_RATE_LIMIT=60000000 a minute (the most the built-in
#           limiter takes: every request goes through it, none is refused).
#           Prints the per-round ratios rest/bare and mcp/rest, and each
#           server's CPU time per request (from /proc/PID/stat).
#   stdio   MCP over stdio, one plain JSON-RPC client (perfbench stdio):
#           sequential cached tools/call lookup_company, over pipes (as a
#           Go or Python client spawns the server), then over Unix
#           socketpairs (as a Node client does).
#   cold    300 sequential lookups of fresh numbers through a fake register
#           that holds each answer 50 ms, each beside a request straight
#           to the register (perfbench cold); the added latency of a lookup
#           is its time at the client minus the register handler's own.
#           Then the same against perfbench proxy, a plain net/http proxy
#           of the lookup: what one more Go process in the path adds here.
#   memory  a fresh server caches 20,000 distinct reports; its VmRSS.
# DECOMPOSE=1 adds two servers of this build to the http rounds, REST only:
# rest-nolim with the client rate limit off, and rest-nolog with the rate
# limit off and REGISTRY_LOG_LEVEL=warn (no access log; it logs nothing at
# start, so it listens on 127.0.0.1:$DECOMPOSE_PORT, default 18777).
# LAYERS=1 adds three servers of this build made with the perflayers tag to
# the http rounds, REST only (BENCHMARKS.md, "REST against the bare server,
# taken apart by layers"): rest-config serves the captured answer of the
# cached lookup through the program's HTTP server alone, rest-mw inside the
# outer middleware stack with the access log and the rate limit, rest-mwnolim
# the same with the rate limit off.
# GOGC_VARIANT=N adds rest-gogc to the http rounds, REST only: a server of
# this build with the log and the rate limit on as rest-this, run with
# GOGC=N and REGISTRY_HEAP_FLOOR=0 (the floor would raise GOGC above N
# while the live heap is small): the collector's share of the gap to the
# bare server.
# With BEFORE_REV, the server built from that revision is measured in the
# same rounds (http, stdio) or right after (cold, memory).
prog=perf-bench
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

parts=${PARTS:-http stdio cold memory}
rounds=${ROUNDS:-5}
duration=${DURATION:-10s}
conns=${CONNS:-64}
calls=${CALLS:-20000}
decompose=${DECOMPOSE:-}
gogc_variant=${GOGC_VARIANT:-}
layers=${LAYERS:-}

if ! command -v wrk >/dev/null; then
  apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
fi
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
build "$tmp" ./examples/server ./internal/cmd/fakebrreg ./internal/cmd/perfbench
mv "$tmp/server" "$tmp/server-this"
if [ -n "$layers" ]; then
  GOFLAGS="${GOFLAGS:-} -buildvcs=false" go build -tags perflayers -o "$tmp/server-layers" ./examples/server
fi
versions=(this)
if [ $# -gt 0 ]; then
  mkdir -p "$tmp/before-src"
  git archive "$1" | tar -x -C "$tmp/before-src"
  (cd "$tmp/before-src" && go build -o "$tmp/server-before" ./examples/server)
  versions+=(before)
fi
echo "$(go version); $(wrk --version 2>&1 | head -n1); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

unit=examples/server/testdata/brreg_enhet_923609016.json
# register DELAY: starts a fake register; sets $brreg.
register() {
  rm -f "$tmp/fake.out"
  "$tmp/fakebrreg" -delay "$1" -unit "$unit" >"$tmp/fake.out" 2>"$tmp/fake.err" &
  pids+=("$!")
  wait_for "the fake register" 10 test -s "$tmp/fake.out"
  brreg=$(head -n1 "$tmp/fake.out")
}
# start VERSION [ENV...]: starts a server on loopback; sets $pid and $api.
start() {
  local v=$1; shift
  : >"$tmp/server-$v.log"
  env REGISTRY_ADDR=127.0.0.1:0 BRREG_BASE_URL="$brreg" REGISTRY_LOG_LEVEL=info "$@" \
    "$tmp/server-$v" 2>"$tmp/server-$v.log" &
  pid=$!
  pids+=("$pid")
  wait_for "the $v server" 20 grep -q '"msg":"listening"' "$tmp/server-$v.log"
  api=http://$(listen_addr "$tmp/server-$v.log")
}
stop() { kill "$1" && wait "$1" 2>/dev/null || true; }

mcpbody='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"country":"NO","id":"923609016"}}}'
cat >"$tmp/mcp.lua" <<EOF
wrk.method = "POST"
wrk.body = '$mcpbody'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Mcp-Protocol-Version"] = "2025-06-18"
EOF

# cputicks PID: user and system CPU time of a process, in clock ticks.
cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# bench NAME PID URL [wrk args...]: one wrk run against the server PID;
# prints "NAME requests/s" and "NAME-cpu µs", the server's CPU time per
# request (user and system, from /proc/PID/stat).
bench() {
  local name=$1 p=$2 url=$3; shift 3
  local out t0 t1 hz
  hz=$(getconf CLK_TCK)
  t0=$(cputicks "$p")
  out=$(wrk -t1 -c"$conns" -d"$duration" "$@" "$url")
  t1=$(cputicks "$p")
  if grep -q 'Non-2xx\|Socket errors' <<<"$out"; then echo "$out"; echo "perf-bench: $name had errors"; exit 1; fi
  awk -v n="$name" -v t="$((t1 - t0))" -v hz="$hz" '/^[ \t]*[0-9]+ requests in/ {r = $1} /^Requests\/sec:/ {q = $2}
    END {printf "%s %s\n%s-cpu %.2f\n", n, q, n, t / hz * 1e6 / r}' <<<"$out"
}

if [[ " $parts " == *" http "* ]]; then
  echo "== http: wrk -t1 -c$conns -d$duration, $rounds rounds"
  register 0
  declare -A apis spid
  hversions=("${versions[@]}")
  if [ -n "$decompose" ]; then
    for v in nolim nolog; do cp "$tmp/server-this" "$tmp/server-$v"; done
    hversions+=(nolim nolog)
  fi
  if [ -n "$gogc_variant" ]; then
    cp "$tmp/server-this" "$tmp/server-gogc"
    hversions+=(gogc)
  fi
  if [ -n "$layers" ]; then
    for v in config mw mwnolim; do cp "$tmp/server-layers" "$tmp/server-$v"; done
    hversions+=(config mw mwnolim)
  fi
  for v in "${hversions[@]}"; do
    case $v in
      nolim) start "$v" REGISTRY_RATE_LIMIT=0 ;;
      gogc) start "$v" REGISTRY_RATE_LIMIT=60000000 REGISTRY_HEAP_FLOOR=0 GOGC="$gogc_variant" ;;
      config) start "$v" REGISTRY_PERF_LAYER=config ;;
      mw) start "$v" REGISTRY_PERF_LAYER=mw REGISTRY_RATE_LIMIT=60000000 ;;
      mwnolim) start "$v" REGISTRY_PERF_LAYER=mw REGISTRY_RATE_LIMIT=0 ;;
      nolog)
        api=http://127.0.0.1:${DECOMPOSE_PORT:-18777}
        env REGISTRY_ADDR="${api#http://}" BRREG_BASE_URL="$brreg" REGISTRY_LOG_LEVEL=warn REGISTRY_RATE_LIMIT=0 \
          "$tmp/server-$v" 2>"$tmp/server-$v.log" &
        pid=$!
        pids+=("$pid")
        wait_for "the $v server" 20 curl -fsS -o /dev/null "$api/v1/NO/company/923609016"
        ;;
      *) start "$v" REGISTRY_RATE_LIMIT=60000000 ;;
    esac
    apis[$v]=$api
    spid[$v]=$pid
    curl -fsS "$api/v1/NO/company/923609016" >/dev/null             # fills the cache
    curl -fsS -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
      -d "$mcpbody" "$api/mcp" >"$tmp/mcp-$v.json"
  done
  "$tmp/perfbench" bare -from "${apis[this]}/v1/NO/company/923609016" >"$tmp/bare.out" 2>"$tmp/bare.err" &
  bare_pid=$!
  pids+=("$bare_pid")
  wait_for "the bare server" 10 test -s "$tmp/bare.out"
  bare=$(head -n1 "$tmp/bare.out")
  curl -fsS -D "$tmp/bare.h" "$bare/" >"$tmp/bare.body"
  curl -fsS -D "$tmp/rest.h" "${apis[this]}/v1/NO/company/923609016" >"$tmp/rest.body"
  cmp "$tmp/bare.body" "$tmp/rest.body"
  diff <(grep -v '^Date:\|^X-Request-Id:' "$tmp/bare.h") <(grep -v '^Date:\|^X-Request-Id:' "$tmp/rest.h")
  if [ -n "$layers" ]; then
    # Each layer serves its own server's REST answer, with the same headers
    # (Content-Length included) as rest-this's; the bytes are not compared:
    # each server fetched its report itself.
    for v in config mw mwnolim; do
      curl -fsS -D "$tmp/$v.h" "${apis[$v]}/v1/NO/company/923609016" >/dev/null
      diff <(grep -v '^Date:\|^X-Request-Id:' "$tmp/rest.h") <(grep -v '^Date:\|^X-Request-Id:' "$tmp/$v.h")
    done
  fi
  echo "answer: $(wc -c <"$tmp/rest.body") B REST, $(wc -c <"$tmp/mcp-this.json") B MCP; headers:"
  sed 's/^/  /' "$tmp/rest.h"
  for r in $(seq "$rounds"); do
    bench bare "$bare_pid" "$bare/"
    for v in "${hversions[@]}"; do
      bench "rest-$v" "${spid[$v]}" "${apis[$v]}/v1/NO/company/923609016"
      case $v in nolim | nolog | gogc | config | mw | mwnolim) ;; *) bench "mcp-$v" "${spid[$v]}" "${apis[$v]}/mcp" -s "$tmp/mcp.lua" ;; esac
    done
    for v in "${hversions[@]}"; do : >"$tmp/server-$v.log"; done
  done | tee "$tmp/http.txt"
  pairs=(rest-this/bare mcp-this/rest-this bare-cpu/rest-this-cpu rest-this-cpu/mcp-this-cpu)
  [ ${#versions[@]} -gt 1 ] && pairs+=(rest-before/bare mcp-before/rest-before rest-this/rest-before mcp-this/mcp-before)
  [ -n "$decompose" ] && pairs+=(rest-nolim/bare rest-nolog/bare bare-cpu/rest-nolim-cpu bare-cpu/rest-nolog-cpu)
  [ -n "$gogc_variant" ] && pairs+=(rest-gogc/bare bare-cpu/rest-gogc-cpu)
  [ -n "$layers" ] && pairs+=(rest-config/bare rest-mwnolim/bare rest-mw/bare rest-mw/rest-config rest-this/rest-mw)
  "$tmp/perfbench" ratios "${pairs[@]}" <"$tmp/http.txt"
  stop_all
fi

if [[ " $parts " == *" stdio "* ]]; then
  echo "== stdio: sequential cached tools/call lookup_company, $calls calls x $rounds rounds"
  register 0
  servers=()
  for v in "${versions[@]}"; do servers+=("$v=env BRREG_BASE_URL=$brreg REGISTRY_LOG_LEVEL=info $tmp/server-$v -stdio"); done
  echo "-- pipes"
  "$tmp/perfbench" stdio -calls "$calls" -rounds "$rounds" "${servers[@]}"
  echo "-- socketpairs"
  "$tmp/perfbench" stdio -socketpair -calls "$calls" -rounds "$rounds" "${servers[@]}"
  stop_all
fi

if [[ " $parts " == *" cold "* ]]; then
  echo "== cold: 300 sequential fresh lookups, the register holds each answer 50 ms"
  register 50ms
  for v in "${versions[@]}"; do
    # No upstream budget: 300 calls in 30 s would exceed Brønnøysund's.
    start "$v" REGISTRY_UPSTREAM_BUDGETS=NO=off REGISTRY_RATE_LIMIT=60000000
    echo "-- $v"
    "$tmp/perfbench" cold -api "$api" -register "$brreg" -n 300
    stop "$pid"
  done
  # The floor of a service in between: a plain Go proxy of the lookup.
  rm -f "$tmp/proxy.out"
  "$tmp/perfbench" proxy -register "$brreg" >"$tmp/proxy.out" 2>"$tmp/proxy.err" &
  pids+=("$!")
  wait_for "the proxy" 10 test -s "$tmp/proxy.out"
  echo "-- proxy (perfbench proxy: net/http passing the lookup on, no cache, decoding or log)"
  "$tmp/perfbench" cold -api "$(head -n1 "$tmp/proxy.out")" -register "$brreg" -n 300 -from 40000000
  stop_all
fi

if [[ " $parts " == *" memory "* ]]; then
  echo "== memory: a fresh server caches 20,000 distinct reports"
  register 0
  for v in "${versions[@]}"; do
    start "$v" REGISTRY_UPSTREAM_BUDGETS=NO=off REGISTRY_RATE_LIMIT=0
    echo "-- $v"
    "$tmp/perfbench" fill -api "$api" -pid "$pid" -n 20000
    stop "$pid"
  done
fi
