#!/usr/bin/env bash
# Measures 100 sequential cold lookups through the example server with its default upstream budgets
# (NO=300/1m: a burst of 30, then one call every 222 ms), the client rate limit off, against a fake
# Brønnøysund on loopback that answers every organisation number with the recorded Equinor unit. Prints how
# many answers had each status and the wall time. Not part of CI (it takes about 16 s by design); the figure
# is in BENCHMARKS.md. REGISTRY_UPSTREAM_WAIT=0 in the environment gives the behaviour before issue 29.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
go build -o "$dir/server" ./examples/server
go build -o "$dir/fakebrreg" .ci/budget-wait/fakebrreg.go
python3 - >"$dir/ids" <<'PY'
w = [3, 2, 7, 6, 5, 4, 3, 2]
out, x = [], 91000000
while len(out) < 100:
    r = sum(a * int(b) for a, b in zip(w, str(x))) % 11
    c = 0 if r == 0 else 11 - r
    if c != 10:
        out.append(f"{x}{c}")
    x += 1
print("\n".join(out))
PY
"$dir/fakebrreg" examples/server/testdata/brreg_enhet_923609016.json 127.0.0.1:18091 & fb=$!
BRREG_BASE_URL=http://127.0.0.1:18091 REGISTRY_RATE_LIMIT=0 REGISTRY_LOG_LEVEL=error \
  "$dir/server" -addr 127.0.0.1:18090 2>/dev/null & sv=$!
trap 'kill $sv $fb 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:18090/health && break; sleep 0.1; done
start=$(date +%s.%N)
while read -r id; do curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:18090/v1/NO/company/$id"; done <"$dir/ids" | sort | uniq -c
end=$(date +%s.%N)
echo "wall: $(echo "$end - $start" | bc) s"
