#!/usr/bin/env bash
# Measures 100 sequential cold lookups through the example server with its default upstream budgets
# (NO=300/1m: a burst of 30, then one call every 222 ms), the client rate limit off, against the fake
# Brønnøysund on loopback (internal/cmd/fakebrreg) that answers every organisation number with the recorded
# Equinor unit. Prints how many answers had each status and the wall time. Not part of CI (it takes about 16 s
# by design); the figure is in BENCHMARKS.md. REGISTRY_UPSTREAM_WAIT=0 in the environment gives the behaviour
# before issue 29.
prog=budget-wait
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

require go curl
build "$tmp" ./examples/server ./internal/cmd/fakebrreg
for i in $(seq 100); do orgnr "$i"; done >"$tmp/ids"

"$tmp/fakebrreg" -unit examples/server/testdata/brreg_enhet_923609016.json >"$tmp/fake.out" 2>"$tmp/fake.err" &
pids+=("$!")
wait_for "the fake register" 10 test -s "$tmp/fake.out"
: >"$tmp/server.log"
REGISTRY_ADDR=127.0.0.1:0 BRREG_BASE_URL="$(head -n1 "$tmp/fake.out")" REGISTRY_RATE_LIMIT=0 REGISTRY_CHANGES=off \
  "$tmp/server" 2>"$tmp/server.log" &
pids+=("$!")
wait_for "the server" 20 grep -q '"msg":"listening"' "$tmp/server.log"
api=http://$(listen_addr "$tmp/server.log")

start=$(now_ns)
while read -r id; do curl -s -o /dev/null -w '%{http_code}\n' "$api/v1/NO/company/$id"; done <"$tmp/ids" | sort | uniq -c
echo "wall: $(awk -v s="$start" -v n="$(now_ns)" 'BEGIN{printf "%.3f", (n - s) / 1e9}') s"
