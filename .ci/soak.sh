#!/usr/bin/env bash
# Soak test of the example server, run on demand (not in CI: its checks
# read memory and goroutine counts of a live process, which depend on the
# machine's load; see doc/decisions.md):
#
#   .ci/soak.sh                 # five minutes
#   SOAK_DURATION=60s .ci/soak.sh
#
# It builds the server, the fake Brønnøysund register (with -faults: 503s,
# timeouts, slow and broken bodies) and the load driver (internal/cmd/soak),
# starts the register and the server on loopback, runs the driver's mixed
# load (cached and cold lookups, searches, deadline batches, MCP calls, bad
# requests) and prints its numbers and checks: no goroutine growth, RSS back
# within 10 % of its plateau, no 5xx but the injected upstream errors mapped
# as the spec says. Exit status 1 when a check failed. Everything started
# here is stopped on exit. Needs go.
prog=soak
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

duration=${SOAK_DURATION:-5m}
workers=${SOAK_WORKERS:-16}

echo "-- building"
build "$tmp" ./examples/server ./internal/cmd/fakebrreg ./internal/cmd/soak

"$tmp/fakebrreg" -faults -unit examples/server/testdata/brreg_enhet_923609016.json >"$tmp/fake.out" 2>"$tmp/fake.err" &
pids+=("$!")
wait_for "the fake register" 10 test -s "$tmp/fake.out"
brreg=$(head -n1 "$tmp/fake.out")

# One replica, no client rate limit (every client is 127.0.0.1) and no
# upstream budget, so that the load reaches the register; a cache lifetime
# of a minute, shorter than the driver's cycle of cold units, so that they
# stay cold; the access log at info level, as in production, to a file.
REGISTRY_ADDR=127.0.0.1:0 BRREG_BASE_URL="$brreg" REGISTRY_RATE_LIMIT=0 REGISTRY_UPSTREAM_BUDGETS="NO=off,FI=off" \
  REGISTRY_CACHE_TTL=1m \
  REGISTRY_METRICS_ADDR=127.0.0.1:0 REGISTRY_LOG_LEVEL=info \
  "$tmp/server" 2>"$tmp/server.log" &
server_pid=$!
pids+=("$server_pid")
wait_for "the server" 20 grep -q '"msg":"listening"' "$tmp/server.log"
api=$(listen_addr "$tmp/server.log" || true)
metrics=$(grep -o '"msg":"metrics listening","addr":"[^"]*"' "$tmp/server.log" | sed 's/.*"addr":"\([^"]*\)"/\1/' || true)
echo "-- server (pid $server_pid) at $api, metrics at $metrics; register at $brreg"
echo "-- load for $duration with $workers workers"
set +e
"$tmp/soak" -base "http://$api" -metrics "http://$metrics/metrics" -duration "$duration" -workers "$workers"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  echo "-- last lines of the server's log:"; tail -n 20 "$tmp/server.log"
fi
exit "$rc"
