# .ci/lib.sh: the shell boilerplate of the .ci scripts that start processes
# on loopback. A script sets prog (its name, the prefix of its messages),
# runs set -euo pipefail, goes to the repository root and sources this file:
#
#   prog=scale-out
#   set -euo pipefail
#   cd "$(dirname "$0")/.."
#   . .ci/lib.sh
#
# It gives:
#   $tmp, $pids   a temporary folder, and the processes started (a script
#                 appends each pid it starts); on exit every one is killed,
#                 waited for, and the folder removed (the EXIT trap)
#   stop_all      kills and waits for every process in pids, then forgets them
#   require TOOL...  exits 1 naming the first tool that is not installed
#   build DIR PKG...  go build -buildvcs=false of the packages into DIR
#   wait_for DESCRIPTION SECONDS COMMAND...  runs COMMAND every $wait_poll
#                 seconds (default 0.1) until it succeeds; returns 1 after
#                 SECONDS, or at once when COMMAND returns 125 (hopeless)
#   listen_addr LOG  the "addr" of the first "listening" record of LOG, the
#                 JSON log of the example server (started with
#                 REGISTRY_ADDR=127.0.0.1:0, a free port)
#   pass, fail, check DESCRIPTION COMMAND...  a PASS or FAIL line; fail
#                 counts in $failures
#   now_ns, phase TITLE  a heading with the seconds since $phase_start_ns
#                 (when this file was sourced; a script may reset it)
#   orgnr I       the I-th valid Norwegian organisation number from
#                 930000000 on (fresh numbers for cold lookups)

tmp=$(mktemp -d)
pids=()
stop_all() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  stop_all
  rm -rf "$tmp"
}
trap cleanup EXIT

require() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "$prog: $tool is not installed"; exit 1; }
  done
}

build() { # build DIR PKG...
  local dir=$1; shift
  GOFLAGS="${GOFLAGS:-} -buildvcs=false" go build -o "$dir/" "$@"
}

wait_poll=0.1
wait_for() {
  local what=$1 limit=$2; shift 2
  local deadline=$((SECONDS + limit))
  local rc
  while :; do
    rc=0
    "$@" || rc=$?
    ((rc == 0)) && return 0
    ((rc == 125)) && { echo "$prog: gave up waiting for $what"; return 1; }
    if ((SECONDS >= deadline)); then echo "$prog: timed out after ${limit}s waiting for $what"; return 1; fi
    sleep "$wait_poll"
  done
}

listen_addr() {
  grep -o '"msg":"listening","addr":"[^"]*"' "$1" | head -n1 | sed 's/.*"addr":"\([^"]*\)"/\1/'
}

failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION CONDITION...
  local what=$1; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

now_ns() { date +%s%N; }
phase_start_ns=$(now_ns)
phase() { echo; echo "== [$(awk -v s="$phase_start_ns" -v n="$(now_ns)" 'BEGIN{printf "%.1f", (n - s) / 1e9}')s] $*"; }

orgnr() {
  local n=$((93000000 + $1 * 7)) s sum c k
  local w=(3 2 7 6 5 4 3 2)
  while :; do
    s=$n sum=0
    for k in 0 1 2 3 4 5 6 7; do sum=$((sum + ${s:k:1} * w[k])); done
    c=$((11 - sum % 11)); ((c == 11)) && c=0
    if ((c != 10)); then echo "$s$c"; return; fi
    n=$((n + 1))
  done
}
