#!/usr/bin/env bash
# Change monitoring on three replicas of the example server sharing one
# PostgreSQL (issue 28), with real processes on loopback: a throwaway
# PostgreSQL (internal/cmd/pgserver), a fake Brønnøysund that publishes
# updates on its feeds (internal/cmd/fakebrreg), a webhook receiver that
# verifies the signatures and records every request
# (internal/cmd/webhooksink), and three replicas on one DATABASE_URL. A
# watch is created through REST; the fake publishes changes; then:
#   1. exactly one replica runs the ingesters: only the lease holder's log
#      has the per-run "ingester synced" records, and the feed lists each
#      published change once;
#   2. every change is delivered, signed, with data.id = webhook-id; the
#      first two webhooks are answered 500 and sent again;
#   3. no webhook-id is ever in flight twice at once, and a webhook-id
#      comes again only after a failed attempt (a 500, or its sender gone);
#   4. a replica killed (kill -9) while the receiver holds its request open:
#      the delivery is sent again with the same webhook-id by another
#      replica once the claim runs out, and the store counts one attempt
#      (the dead replica recorded none);
#   5. the leader killed (kill -9): another replica takes the ingesters'
#      lease within a minute of the kill, read from the lease's own
#      timestamps (expires_at minus the 30 s TTL), and ingests the change
#      published after the kill within a minute (its detected_at).
# The waits poll with generous guards (a loaded two-core CI); the
# one-minute claims are checked from the store's timestamps, not from how
# long the script waited. Each claim prints a PASS or FAIL line; on any
# failure the logs of every process are printed and the exit status is 1.
# Everything started here is stopped on exit.
#
# Needs go, curl, jq and PostgreSQL's initdb and postgres (found as
# internal/pgtest finds them; as root the server runs as the postgres
# user). Run from anywhere: .ci/changes-replicas.sh
prog=changes-replicas
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
. .ci/lib.sh

require go curl jq

# dump_logs: every process's output, for a failure.
dump_logs() {
  echo
  echo "==== logs ===="
  for i in 1 2 3; do
    echo "-- replica $i (pid ${rpid[i]:-?}): warnings and errors"
    grep -E '"level":"(WARN|ERROR)"' "$tmp/replica$i.log" | tail -n 40 || true
    echo "-- replica $i: last 60 lines but the per-run sync records and the access log"
    grep -v -e '"msg":"ingester synced"' -e '"msg":"request"' "$tmp/replica$i.log" | tail -n 60 || true
  done
  echo "-- fake register (stderr)"; tail -n 40 "$tmp/fake.err" 2>/dev/null || true
  echo "-- webhook receiver (stderr)"; tail -n 40 "$tmp/sink.err" 2>/dev/null || true
  echo "-- webhook receiver's record"; curl -fsS -m 5 "$sink/control/log" 2>/dev/null || true
  echo "-- pgserver (stderr)"; cat "$tmp/pg.err" 2>/dev/null || true
  local pglog
  pglog=$(sed -n 's/^pgserver: log in //p' "$tmp/pg.err" 2>/dev/null || true)
  if [ -n "$pglog" ]; then echo "-- postgres log"; tail -n 40 "$pglog" 2>/dev/null || true; fi
}
die() { echo "changes-replicas: $*"; dump_logs; exit 1; }

wait_poll=0.2 # wait_for (.ci/lib.sh) runs its command every 0.2 s
t0=$SECONDS

phase "building the server, the fake register, the receiver and pgserver"
build "$tmp" ./examples/server ./internal/cmd/fakebrreg ./internal/cmd/webhooksink ./internal/cmd/pgserver
echo "   built in $((SECONDS - t0))s"

phase "starting PostgreSQL, the fake register and the receiver"
"$tmp/pgserver" >"$tmp/pg.out" 2>"$tmp/pg.err" &
pgpid=$!
pids+=("$pgpid")
"$tmp/fakebrreg" -unit examples/server/testdata/brreg_enhet_923609016.json \
  -roles examples/server/testdata/brreg_roller_923609016_anonymised.json >"$tmp/fake.out" 2>"$tmp/fake.err" &
pids+=("$!")
"$tmp/webhooksink" >"$tmp/sink.out" 2>"$tmp/sink.err" &
pids+=("$!")
sink=
pg_up() { test -s "$tmp/pg.out" || { kill -0 "$pgpid" 2>/dev/null || die "pgserver exited"; return 1; }; }
wait_for "the fake register" 20 test -s "$tmp/fake.out" || die "no fake register"
wait_for "the webhook receiver" 20 test -s "$tmp/sink.out" || die "no webhook receiver"
wait_for "PostgreSQL" 90 pg_up || die "no PostgreSQL"
brreg=$(head -n1 "$tmp/fake.out")
sink=$(head -n1 "$tmp/sink.out")
export DATABASE_URL
DATABASE_URL=$(head -n1 "$tmp/pg.out")
sql() { "$tmp/pgserver" -query "$1"; }
echo "   PostgreSQL at ${DATABASE_URL%%/registry*}, fake register at $brreg, receiver at $sink"

phase "three replicas on one DATABASE_URL"
token=ci-token-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
declare -a rpid raddr
for i in 1 2 3; do
  mkdir -p "$tmp/r$i"
  : >"$tmp/replica$i.log"
  # The replicas run in folders of their own: nothing lands in the checkout.
  (cd "$tmp/r$i" && exec env REGISTRY_ADDR=127.0.0.1:0 BRREG_BASE_URL="$brreg" DATABASE_URL="$DATABASE_URL" \
    REGISTRY_API_TOKENS="ci=$token" REGISTRY_WEBHOOK_ALLOW_PRIVATE=true REGISTRY_CHANGES_INTERVAL=2s \
    REGISTRY_LOG_LEVEL=debug "$tmp/server" 2>"$tmp/replica$i.log") &
  rpid[i]=$!
  pids+=("${rpid[i]}")
done
for i in 1 2 3; do
  wait_for "replica $i" 60 grep -q '"msg":"listening"' "$tmp/replica$i.log" || die "replica $i did not start"
  raddr[i]="http://$(listen_addr "$tmp/replica$i.log")"
  grep -q '"msg":"change monitoring","store":"postgres"' "$tmp/replica$i.log" || die "replica $i does not keep changes on PostgreSQL"
done
echo "   replicas ${raddr[1]} (pid ${rpid[1]}), ${raddr[2]} (pid ${rpid[2]}), ${raddr[3]} (pid ${rpid[3]})"

# replica_of_holder HOLDER: the replica number whose process id is in a
# lease or claim holder ("host-PID-suffix"), or nothing.
replica_of_holder() {
  local pid i
  pid=$(sed -n 's/.*-\([0-9][0-9]*\)-[0-9a-f]*$/\1/p' <<<"$1")
  for i in 1 2 3; do [ "${rpid[i]}" = "$pid" ] && echo "$i"; done
  return 0
}
# api METHOD REPLICA PATH [BODY]: the body of an authorised REST call;
# fails on a status other than 2xx.
api() {
  local args=(-fsS -m 20 -X "$1" -H "Authorization: Bearer $token")
  [ $# -ge 4 ] && args+=(-H 'Content-Type: application/json' -d "$4")
  curl "${args[@]}" "${raddr[$2]}$3"
}
# publish ORGNR NAME: the fake register publishes a new name of ORGNR.
publish() {
  curl -fsS -m 10 -X POST -H 'Content-Type: application/json' -d "{\"navn\":\"$2\"}" \
    "$brreg/oppdateringer/enheter?organisasjonsnummer=$1" >/dev/null
}
# syncs REPLICA: how many runs of Norway's feed ingester its log shows.
syncs() { grep '"msg":"ingester synced"' "$tmp/replica$1.log" | grep -c '"ingester":"NO/feeds"' || true; }
# lease: "holder<TAB>expires_at" (microseconds) of the ingesters' lease.
lease() { sql "SELECT holder, expires_at FROM leases WHERE name = 'changes/ingest'"; }
sinklog() { curl -fsS -m 10 "$sink/control/log"; }
# feed REPLICA: the caller's changes, one a line: id company new-name detected_at.
feed() { api GET "$1" '/v1/changes?limit=100' | jq -r '.changes[] | [.id, .company_id, (.new | tojson), .detected_at] | @tsv'; }
# delivered: the webhook-ids the receiver answered 2xx, one a line.
delivered() { sinklog | awk -F'\t' '$7 ~ /^2/ {print $2}' | sort -u; }
to_ns() { date -d "$1" +%s%N; }
micros_to_s() { awk -v m="$1" 'BEGIN{printf "%.1f", m / 1e6}'; }

A=923609016 B=974760673 C=987654325 # valid organisation numbers; the fake answers any with Equinor's record
phase "a watch through REST (three Norwegian companies, every kind, the receiver's URL)"
created=$(api POST 1 /v1/watches "{\"country\":\"NO\",\"ids\":[\"$A\",\"$B\",\"$C\"],\"url\":\"$sink/hook\"}") ||
  die "POST /v1/watches failed"
watch=$(jq -r .id <<<"$created")
jq -r .secret <<<"$created" | curl -fsS -m 5 -X POST --data-binary @- "$sink/control/secret" || die "the receiver refused the secret"
echo "   watch $watch, baseline pending: $(jq -c .baseline_pending <<<"$created")"

phase "waiting for a leader and its first read of the units' feed"
cursor_set() { [ -n "$(sql "SELECT value FROM ingest_cursors WHERE name = 'NO/enheter'")" ]; }
wait_for "the ingesters' lease and the NO/enheter cursor" 90 cursor_set || die "no replica started ingesting"
IFS=$'\t' read -r holder1 expires1 <<<"$(lease)"
leader=$(replica_of_holder "$holder1")
[ -n "$leader" ] || die "the lease holder $holder1 is none of the replicas"
echo "   replica $leader (pid ${rpid[leader]}) holds the lease as $holder1"

phase "1-3. three changes published; the receiver answers 500 to the first two webhooks"
curl -fsS -m 5 -X POST "$sink/control/fail?n=2" || die "receiver control"
publish "$A" "RENAMED A1" && publish "$B" "RENAMED B1" && publish "$C" "RENAMED C1" || die "publishing failed"
three_delivered() { [ "$(delivered | wc -l)" -ge 3 ] && [ "$(feed 1 | wc -l)" -ge 3 ]; }
wait_for "three changes delivered" 90 three_delivered || fail "three changes were not delivered within 90 s"
echo "   delivered: $(delivered | tr '\n' ' ')"

phase "4-5. a replica killed mid-delivery, and the leader killed"
curl -fsS -m 5 -X POST "$sink/control/hold?n=1" || die "receiver control"
publish "$A" "RENAMED A2" || die "publishing failed"
held() { [ -n "$(curl -fsS -m 5 "$sink/control/held")" ]; }
wait_for "a webhook held open by the receiver" 60 held || die "no webhook reached the receiver to hold"
held_id=$(curl -fsS -m 5 "$sink/control/held" | head -n1)
claimer=$(sql "SELECT d.claimed_by FROM deliveries d JOIN changes c ON c.seq = d.change_seq WHERE c.id = '$held_id'")
sender=$(replica_of_holder "$claimer")
[ -n "$sender" ] || die "the claim of $held_id is held by $claimer, none of the replicas"
IFS=$'\t' read -r holder1 expires1 <<<"$(lease)"
leader=$(replica_of_holder "$holder1")
declare -A before
for i in 1 2 3; do before[$i]=$(syncs "$i"); done
kill9() { kill -9 "$1"; wait "$1" 2>/dev/null || true; } # wait: no "Killed" notice from the shell
kill_sender_ns=$(now_ns) # taken before the kill: the durations measured from it are upper bounds
kill9 "${rpid[sender]}"
echo "   the receiver holds $held_id open; replica $sender (pid ${rpid[sender]}, claim $claimer) sent it: killed"
if [ "$sender" = "$leader" ]; then
  kill_leader_ns=$kill_sender_ns
  echo "   replica $sender was also the leader"
else
  IFS=$'\t' read -r holder1 expires1 <<<"$(lease)"
  kill_leader_ns=$(now_ns)
  kill9 "${rpid[leader]}"
  echo "   the leader, replica $leader (pid ${rpid[leader]}, $holder1): killed"
fi
survivors=()
for i in 1 2 3; do [ "$i" != "$sender" ] && [ "$i" != "$leader" ] && survivors+=("$i"); done
alive=${survivors[0]}
publish_ns=$(now_ns) # taken before the publication: the delay measured from it is an upper bound
publish "$B" "RENAMED B2" || die "publishing failed"
echo "   published a new name of $B after the kill; waiting for the takeover and the redelivery"

takeover() {
  local h e
  IFS=$'\t' read -r h e <<<"$(lease)"
  if [ -n "$h" ] && [ "$h" != "$holder1" ] && [ -z "${holder2:-}" ]; then holder2=$h expires2=$e; fi
  [ -n "${holder2:-}" ]
}
holder2= expires2=
finished() {
  takeover || true
  [ -n "$holder2" ] || return 1
  feed "$alive" >"$tmp/feed.tsv" || return 1
  b2=$(awk -F'\t' -v b="$B" '$2 == b && $3 == "\"RENAMED B2\"" {print $1}' "$tmp/feed.tsv")
  [ -n "$b2" ] || return 1
  delivered >"$tmp/delivered.txt" || return 1
  grep -qx "$held_id" "$tmp/delivered.txt" && grep -qx "$b2" "$tmp/delivered.txt"
}
b2=
wait_for "the takeover, the change after the kill and the redelivery" 180 finished ||
  fail "within 180 s: lease taken by ${holder2:-nobody}, change after the kill ${b2:-not recorded}, redelivery of $held_id $(grep -qx "$held_id" "$tmp/delivered.txt" 2>/dev/null && echo seen || echo not seen)"

phase "checks"
sinklog >"$tmp/sink.tsv"
feed "$alive" >"$tmp/feed.tsv"

# 1. One ingester.
ingesting=()
for i in 1 2 3; do [ "${before[$i]}" -gt 0 ] && ingesting+=("$i"); done
holders=$(grep -h '"msg":"ingester synced"' "$tmp/replica$leader.log" | sed -n 's/.*"holder":"\([^"]*\)".*/\1/p' | sort -u)
echo "   before the kill, runs of NO/feeds per replica: 1: ${before[1]}, 2: ${before[2]}, 3: ${before[3]}"
check "before the kill exactly one replica ran the ingesters (replica ${ingesting[*]}), the lease holder, and its runs name it ($holders)" \
  test "${ingesting[*]}" = "$leader" -a "$holders" = "$holder1"
after=()
for i in "${survivors[@]}"; do [ "$(syncs "$i")" -gt "${before[$i]}" ] && after+=("$i"); done
new_leader=$(replica_of_holder "${holder2:-}")
check "after the kill exactly one surviving replica ran the ingesters (replica ${after[*]:-none}), the new lease holder (replica ${new_leader:-none})" \
  test "${#after[@]}" = 1 -a "${after[*]:-}" = "${new_leader:-x}"
names=$(cut -f2,3 "$tmp/feed.tsv" | sort | tr '\t\n' ' ')
check "the feed lists each of the five published changes once ($(wc -l <"$tmp/feed.tsv") changes: $names)" \
  test "$names" = "$A \"RENAMED A1\" $A \"RENAMED A2\" $B \"RENAMED B1\" $B \"RENAMED B2\" $C \"RENAMED C1\" "

# 2. Every change delivered, signed.
missing=$(cut -f1 "$tmp/feed.tsv" | sort | comm -23 - <(awk -F'\t' '$7 ~ /^2/ {print $2}' "$tmp/sink.tsv" | sort -u) | tr '\n' ' ')
check "every change of the feed reached the receiver with a 2xx (missing: ${missing:-none})" test -z "$missing"
bad=$(awk -F'\t' '$8 != "ok" || $2 != $4 || $3 != "company.name_changed"' "$tmp/sink.tsv")
check "every webhook verified (Standard Webhooks signature), is company.name_changed and has data.id = webhook-id" test -z "$bad"
failed500=$(awk -F'\t' '$7 == "500"' "$tmp/sink.tsv" | wc -l)
check "the two webhooks answered 500 were sent again: $failed500 answered 500, each id later answered 2xx" \
  test "$failed500" = 2 -a -z "$(awk -F'\t' '$7 == "500" {print $2}' "$tmp/sink.tsv" | sort | comm -23 - <(awk -F'\t' '$7 ~ /^2/ {print $2}' "$tmp/sink.tsv" | sort -u))"

# 3. No webhook-id in flight twice at once; repeats only after a failure.
overlaps=$(sort -t$'\t' -k2,2 -k5,5n "$tmp/sink.tsv" | awk -F'\t' '
  $2 == id && ($5 < end || end == "-") {print $2 " arrived at " $5 " while the previous was in flight until " end}
  {id = $2; end = $6}')
check "no webhook-id was received twice at the same time (receipts: $(wc -l <"$tmp/sink.tsv"), ids: $(cut -f2 "$tmp/sink.tsv" | sort -u | wc -l))" test -z "$overlaps"
[ -n "$overlaps" ] && echo "$overlaps"
not_retry=$(sort -t$'\t' -k2,2 -k5,5n "$tmp/sink.tsv" | awk -F'\t' '
  $2 == id && prev !~ /^(5[0-9][0-9]|gone)$/ {print $2 " came again after an attempt answered " prev}
  {id = $2; prev = $7}')
check "a webhook-id came again only after a failed attempt (a 5xx, or its sender gone)" test -z "$not_retry"
[ -n "$not_retry" ] && echo "$not_retry"

# 4. Killed mid-delivery.
receipts=$(awk -F'\t' -v id="$held_id" '$2 == id {print $7}' "$tmp/sink.tsv" | tr '\n' ' ')
attempts=$(api GET "$alive" "/v1/watches/$watch/deliveries" | jq -r --arg id "$held_id" '.deliveries[] | select(.change_id == $id) | "\(.status) \(.attempts)"')
again_ns=$(awk -F'\t' -v id="$held_id" '$2 == id && $7 ~ /^2/ {print $5; exit}' "$tmp/sink.tsv")
echo "   $held_id: receipts answered: $receipts; the store: $attempts; sent again $(awk -v a="${again_ns:-0}" -v k="$kill_sender_ns" 'BEGIN{printf "%.1f", (a - k) / 1e9}') s after the kill"
check "the webhook held open when its sender was killed came again with the same webhook-id (receipts: ${receipts}) and the store counts one attempt, the redelivery's ($attempts)" \
  test "$receipts" = "gone 204 " -a "$attempts" = "succeeded 1"

# 5. Takeover, from the lease's timestamps.
if [ -n "${holder2:-}" ]; then
  acquired2=$((expires2 - 30000000)) # expires_at - the 30 s TTL: when it was taken (or renewed, which is later)
  kill_us=$((kill_leader_ns / 1000))
  took=$((acquired2 - kill_us))
  echo "   old lease: $holder1 until $(micros_to_s $((expires1 - kill_us))) s after the kill; new: $holder2 taken $(micros_to_s "$took") s after the kill"
  logged=$(grep -h '"msg":"this replica runs the ingesters"' "$tmp/replica$new_leader.log" | tail -n1 | sed -n 's/.*"time":"\([^"]*\)".*/\1/p')
  [ -n "$logged" ] && echo "   replica $new_leader logged taking it $(awk -v a="$(to_ns "$logged")" -v k="$kill_leader_ns" 'BEGIN{printf "%.1f", (a - k) / 1e9}') s after the kill"
  check "another replica (replica $new_leader) took the ingesters' lease within a minute of the leader's kill ($(micros_to_s "$took") s)" \
    test "$took" -le 60000000 -a "${new_leader:-0}" != "$leader"
else
  fail "another replica took the ingesters' lease within a minute of the leader's kill (none did)"
fi
detected=$(awk -F'\t' -v id="$b2" '$1 == id {print $4}' "$tmp/feed.tsv")
if [ -n "$detected" ]; then
  late=$(( ($(to_ns "$detected") - publish_ns) / 1000000 ))
  check "the change published after the kill was recorded $((late / 1000)).$(( (late % 1000) / 100 )) s after its publication (detected_at), within a minute" \
    test "$late" -le 60000
else
  fail "the change published after the kill was recorded"
fi

echo
for i in 1 2 3; do
  if grep -q '"level":"ERROR"' "$tmp/replica$i.log"; then
    echo "replica $i logged errors:"; grep '"level":"ERROR"' "$tmp/replica$i.log" | head -n5
  fi
done
echo "changes-replicas: $failures failure(s) in $((SECONDS - t0))s with the build"
if ((failures > 0)); then
  dump_logs
  exit 1
fi
