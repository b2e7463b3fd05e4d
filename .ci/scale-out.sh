#!/usr/bin/env bash
# Scale-out check: Redis, three replicas of the example server and a fake
# Brønnøysund register, all on loopback, driven with curl. It shows:
#   1. a lookup fetched by one replica is a cache hit on the other two
#      (one request to the register);
#   2. 60 requests from one client spread over the three replicas pass and
#      the 61st is refused, on REST (429) and on MCP (a rate_limited tool
#      error), the limit being shared through Redis;
#   3. the upstream budget holds across replicas: a burst of cold lookups
#      larger than the budget's burst reaches the register at most that
#      many times, the rest are 429 rate_limited;
#   4. Redis killed mid-run: every request still answers (no 5xx, no
#      failed connection) and /health stays 200 with redis.reachable false;
#   5. Redis back: /health says reachable true and sharing resumes.
# Each claim prints a PASS or FAIL line; the exit status is 1 when any
# failed. Everything started here is stopped on exit.
#
# Needs go, curl and redis-server. Run from anywhere: .ci/scale-out.sh
prog=scale-out
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

require go curl redis-server

t0=$SECONDS
echo "-- building the server and the fake register"
build "$tmp" ./examples/server ./internal/cmd/fakebrreg
echo "   built in $((SECONDS - t0))s"
t1=$SECONDS
phase_start_ns=$(now_ns)

# Redis on a free loopback port, without persistence.
redis_port=
redis_pid=
redis_ping() { # answers +PONG on $redis_port
  local line
  { exec 3<>"/dev/tcp/127.0.0.1/$redis_port"; } 2>/dev/null || return 1
  printf 'PING\r\n' >&3
  IFS= read -r -t 1 line <&3 || true
  exec 3>&- 3<&-
  [[ $line == +PONG* ]]
}
start_redis() {
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no \
    --logfile "$tmp/redis.log" >/dev/null 2>&1 &
  redis_pid=$!
  pids+=("$redis_pid")
  wait_for "redis-server on $redis_port" 10 redis_up
}
redis_up() { # redis answers, or has exited (then the caller tries another port)
  redis_ping && return 0
  kill -0 "$redis_pid" 2>/dev/null || return 125
  return 1
}
for _ in 1 2 3 4 5; do
  redis_port=$((20000 + RANDOM % 12000)) # below Linux's ephemeral ports (32768 on)
  if (exec 3<>"/dev/tcp/127.0.0.1/$redis_port") 2>/dev/null; then continue; fi # taken
  if start_redis; then break; fi
  redis_port=
done
[ -n "$redis_port" ] || { echo "scale-out: redis-server did not start"; exit 1; }
echo "-- redis-server on 127.0.0.1:$redis_port"

# The fake register prints its base URL first.
"$tmp/fakebrreg" -unit examples/server/testdata/brreg_enhet_923609016.json >"$tmp/fake.out" 2>"$tmp/fake.err" &
pids+=("$!")
wait_for "the fake register" 10 test -s "$tmp/fake.out"
brreg=$(head -n1 "$tmp/fake.out")
fake_root=${brreg%/enhetsregisteret/api}
register_count() { curl -fsS "$fake_root/count" | sed -n 's/.*"requests":\([0-9]*\).*/\1/p'; }
echo "-- fake register at $brreg"

# Three replicas. Clients are told apart by X-Forwarded-For from the
# trusted loopback proxy, so that each claim has a client of its own.
# NO=50/1h is a burst of 5 calls, then one every 80 s.
budget_burst=5
replicas=()
for i in 1 2 3; do
  : >"$tmp/replica$i.log" # exists before the wait below reads it (the replica opens it in the background)
  REGISTRY_ADDR=127.0.0.1:0 BRREG_BASE_URL="$brreg" REDIS_URL="redis://127.0.0.1:$redis_port/0" \
    REDIS_TIMEOUT=500ms REGISTRY_UPSTREAM_BUDGETS="NO=50/1h" REGISTRY_TRUSTED_PROXIES=127.0.0.1 \
    REGISTRY_METRICS_ADDR=127.0.0.1:0 REGISTRY_LOG_LEVEL=info \
    "$tmp/server" 2>"$tmp/replica$i.log" &
  pids+=("$!")
done
for i in 1 2 3; do
  wait_for "replica $i" 20 grep -q '"msg":"listening"' "$tmp/replica$i.log"
  replicas+=("http://$(listen_addr "$tmp/replica$i.log")")
done
echo "-- replicas at ${replicas[*]}"
echo "   started in $((SECONDS - t1))s"

# rest CLIENT URL: prints "STATUS BODY" of a GET.
rest() {
  curl -sS -m 10 -H "X-Forwarded-For: $1" -w '\n%{http_code}' "$2" 2>&1 |
    { body=$(cat); printf '%s %s\n' "${body##*$'\n'}" "${body%$'\n'*}"; }
}
# MCP over HTTP: initialize (once per replica and client), then tools/call.
mcp_post() { # mcp_post CLIENT REPLICA SESSION BODY: prints headers and body
  local hdr=()
  [ -n "$3" ] && hdr=(-H "Mcp-Session-Id: $3")
  curl -sS -m 10 -D - -X POST "$2/mcp" -H "X-Forwarded-For: $1" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -H 'Mcp-Protocol-Version: 2025-06-18' "${hdr[@]}" -d "$4" 2>&1
}
declare -A sessions
mcp_init() { # mcp_init CLIENT REPLICA: initializes and remembers the session id, if any
  local out sid
  out=$(mcp_post "$1" "$2" "" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scale-out.sh","version":"1"}}}')
  grep -q '"serverInfo"' <<<"$out" || { echo "scale-out: MCP initialize failed: $out"; return 1; }
  sid=$(tr -d '\r' <<<"$out" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: *//p')
  sessions["$1 $2"]=$sid
  mcp_post "$1" "$2" "$sid" '{"jsonrpc":"2.0","method":"notifications/initialized"}' >/dev/null
}
mcp_tool() { # mcp_tool CLIENT REPLICA TOOL ARGS: prints headers and body of tools/call
  mcp_post "$1" "$2" "${sessions["$1 $2"]:-}" \
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"$3\",\"arguments\":$4}}"
}

# counts: "N×VALUE" for each distinct line of stdin.
counts() { sort | uniq -c | awk '{printf "%s%d×%s", (NR > 1 ? ", " : ""), $1, $2}'; }

# phase (.ci/lib.sh) counts from the replicas' start.

phase "1. one fetch, three replicas"
first=$(rest 203.0.113.1 "${replicas[0]}/v1/NO/company/923609016")
second=$(rest 203.0.113.1 "${replicas[1]}/v1/NO/company/923609016")
third=$(rest 203.0.113.1 "${replicas[2]}/v1/NO/company/923609016")
fetched() { grep -o '"fetched_at":"[^"]*"' <<<"$1"; }
cached() { grep -o '"cached":[a-z]*' <<<"$1"; }
echo "   replica 1: ${first%% *} $(cached "$first") $(fetched "$first")"
echo "   replica 2: ${second%% *} $(cached "$second") $(fetched "$second")"
echo "   replica 3: ${third%% *} $(cached "$third") $(fetched "$third")"
n=$(register_count)
check "a lookup on replica 1 is a hit on replicas 2 and 3 with the same fetched_at; the register saw $n request (want 1)" \
  test "${first%% *} $(cached "$first") ${second%% *} $(cached "$second") ${third%% *} $(cached "$third") $n" \
  = '200 "cached":false 200 "cached":true 200 "cached":true 1' -a "$(fetched "$first")" = "$(fetched "$third")"

phase "2. the client rate limit across replicas (60 a minute per client)"
# The allowance refills one request a second: requests go out as fast as
# curl can send them (one process, kept-alive connections), and if the 60
# took over a second, as many more as seconds passed may pass before the
# first refusal.
refilled() { echo $(( ($(now_ns) - $1) / 1000000000 )); } # whole seconds since $1

# REST: 60 GETs spread over the three replicas, then until the first refusal.
urls=()
for i in $(seq 0 59); do urls+=("${replicas[i % 3]}/v1/countries" -o /dev/null); done
begin=$(now_ns)
codes=$(curl -sS -m 30 -H 'X-Forwarded-For: 203.0.113.10' -w '%{http_code}\n' "${urls[@]}" | counts)
extra=0
while last=$(rest 203.0.113.10 "${replicas[0]}/v1/countries") && [ "${last%% *}" = 200 ] && ((extra < 10)); do
  extra=$((extra + 1))
done
refill=$(refilled "$begin")
echo "   REST: 60 requests answered $codes; then $extra more passed ($refill s of refill); the next: ${last%% *} $(grep -o '"code":"[a-z_]*"' <<<"$last" | head -n1)"
check "REST: 60 requests from one client over three replicas pass, then request $((61 + extra)) is 429 rate_limited (one more may pass per second of the run)" \
  test "$codes|${last%% *}|$(grep -c '"code":"rate_limited"' <<<"$last")" = "60×200|429|1" -a "$extra" -le "$refill"

# MCP: a session on each replica (initialize; the server is stateless and
# sends no Mcp-Session-Id, which would be sent back if it did), then 60
# tools/call spread over them in one curl process, then until the first
# refusal.
for r in "${replicas[@]}"; do mcp_init 203.0.113.20 "$r"; done
call='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}'
args=()
for i in $(seq 0 59); do
  r=${replicas[i % 3]}
  ((i > 0)) && args+=(--next)
  args+=(-sS -m 30 -X POST -H 'X-Forwarded-For: 203.0.113.20' -H 'Content-Type: application/json'
    -H 'Accept: application/json, text/event-stream' -H 'Mcp-Protocol-Version: 2025-06-18' -d "$call" -w '\n')
  sid=${sessions["203.0.113.20 $r"]:-}
  [ -n "$sid" ] && args+=(-H "Mcp-Session-Id: $sid")
  args+=("$r/mcp")
done
begin=$(now_ns)
results=$(curl "${args[@]}" | grep -v '^$' | sed -e 's/.*"isError":true.*/refused/' -e 's/.*"structuredContent":{"countries".*/answered/' | counts)
extra=0
while out=$(mcp_tool 203.0.113.20 "${replicas[1]}" list_countries '{}') && ! grep -q '"isError":true' <<<"$out" && ((extra < 10)); do
  extra=$((extra + 1))
done
refill=$(refilled "$begin")
status=$(head -n1 <<<"$out" | tr -d '\r')
retry=$(tr -d '\r' <<<"$out" | sed -n 's/^[Rr]etry-[Aa]fter: *//p')
echo "   MCP: 60 tool calls: $results; then $extra more passed ($refill s of refill); the next: $status, $(grep -o '"isError":[a-z]*' <<<"$out"), $(grep -o 'rate_limited' <<<"$out" | head -n1), Retry-After ${retry:-none}"
check "MCP: 60 tool calls from one client over three replicas pass, then call $((61 + extra)) is a rate_limited tool error with Retry-After (one more may pass per second)" \
  test "$results $(grep -c '"isError":true' <<<"$out") $(grep -c 'rate_limited' <<<"$out") ${retry:+yes}" = "60×answered 1 1 yes" -a "$extra" -le "$refill"

phase "3. the upstream budget across replicas (NO=50/1h: a burst of $budget_burst)"
before=$(register_count)
ok=0 limited=0 other=0
for i in $(seq 0 19); do
  res=$(rest 203.0.113.30 "${replicas[i % 3]}/v1/NO/company/$(orgnr "$i")")
  case "${res%% *}" in
    200) ok=$((ok + 1)) ;;
    429) if grep -q '"code":"rate_limited"' <<<"$res"; then limited=$((limited + 1)); else other=$((other + 1)); fi ;;
    *) other=$((other + 1)) ;;
  esac
done
after=$(register_count)
echo "   20 cold lookups: $ok answered, $limited rate_limited, $other other; the register saw $((after - before)) of them ($after in all)"
check "20 cold lookups over three replicas reach the register at most $budget_burst times in all ($after), the rest are 429 rate_limited" \
  test "$after" -le "$budget_burst" -a "$ok" -eq $((after - before)) -a "$limited" -eq $((20 - ok)) -a "$other" -eq 0

phase "4. Redis killed mid-run"
kill "$redis_pid"
wait "$redis_pid" 2>/dev/null || true
answered=0 broken=0 total=0
summary=()
for i in $(seq 0 29); do
  r=${replicas[i % 3]}
  case $((i % 5)) in
    0) res=$(rest 203.0.113.40 "$r/v1/NO/company/923609016") ;;
    1) res=$(rest 203.0.113.40 "$r/v1/NO/company/$(orgnr $((100 + i)))") ;;
    2) res=$(rest 203.0.113.40 "$r/health") ;;
    3) res=$(rest 203.0.113.40 "$r/v1/NO/validate/923609016") ;;
    4) out=$(mcp_tool 203.0.113.40 "$r" list_countries '{}')
       res="$(head -n1 <<<"$out" | tr -d '\r' | cut -d' ' -f2) $out" ;;
  esac
  total=$((total + 1))
  code=${res%% *}
  summary+=("$code")
  if [[ $code =~ ^[0-9]{3}$ ]] && ((code < 500)); then answered=$((answered + 1)); else broken=$((broken + 1)); fi
done
echo "   $total requests (cached and cold lookups, /health, validate, MCP) answered: $(printf '%s\n' "${summary[@]}" | counts)"
check "with Redis killed every request answers (no 5xx, no failed connection): $answered of $total" test "$broken" -eq 0
health_down() {
  local r res
  for r in "${replicas[@]}"; do
    res=$(rest 203.0.113.41 "$r/health")
    [[ ${res%% *} == 200 && $res == *'"cache":"redis","redis":{"reachable":false}'* ]] || return 1
  done
}
phase "4b. /health with Redis killed"
if wait_for "/health to report Redis unreachable" 10 health_down; then
  echo "   /health: $(rest 203.0.113.41 "${replicas[0]}/health")"
  pass "with Redis killed /health stays 200 on every replica and says redis reachable false"
else
  fail "with Redis killed /health stays 200 on every replica and says redis reachable false"
fi

phase "5. Redis back (empty)"
start_redis || fail "redis-server started again on port $redis_port"
phase "5a. redis-server answers again"
health_up() {
  local r res
  for r in "${replicas[@]}"; do
    res=$(rest 203.0.113.41 "$r/health")
    [[ ${res%% *} == 200 && $res == *'"redis":{"reachable":true}'* ]] || return 1
  done
}
if wait_for "/health to report Redis reachable" 15 health_up; then
  echo "   /health: $(rest 203.0.113.41 "${replicas[0]}/health")"
  pass "with Redis back /health says redis reachable true on every replica"
else
  fail "with Redis back /health says redis reachable true on every replica"
fi
shared_again() {
  local id a b
  id=$(orgnr $((200 + attempt)))
  attempt=$((attempt + 1))
  a=$(rest 203.0.113.50 "${replicas[0]}/v1/NO/company/$id")
  b=$(rest 203.0.113.50 "${replicas[2]}/v1/NO/company/$id")
  [[ ${a%% *} == 200 && ${b%% *} == 200 && $b == *'"cached":true'* ]] || { sleep 0.5; return 1; }
}
attempt=0
phase "5b. sharing"
if wait_for "sharing to resume" 15 shared_again; then
  pass "with Redis back a lookup on replica 1 is a hit on replica 3 again (after $attempt attempt(s))"
else
  fail "with Redis back a lookup on replica 1 is a hit on replica 3 again"
fi

echo
for i in 1 2 3; do
  if grep -q '"level":"ERROR"' "$tmp/replica$i.log"; then
    echo "replica $i logged errors:"; grep '"level":"ERROR"' "$tmp/replica$i.log" | head -n5
  fi
done
echo "scale-out: $failures failure(s); checks took $((SECONDS - t1))s, $((SECONDS - t0))s with the build"
if ((failures > 0)); then
  for i in 1 2 3; do echo "-- replica $i log (redis, budget, warnings):"; grep -E 'redis|budget|WARN' "$tmp/replica$i.log" | head -n20; done
  exit 1
fi
