# Years of history at constant cost (issue 15): sourced by tests/bench/run when LCG_BENCH_ARCHIVE=1
# (or LCG_BENCH_ONLY=archive, which runs this section alone). It adds to FIGURES and RUNS:
#   serve ready time and RSS with 1 published week of ARCHIVE_ROWS observations, then with
#   ARCHIVE_WEEKS of them (< 1 s and <= 96 MiB both times); two new weeks published while serve
#   runs: how soon the second shows (< 1 s) and what RSS it adds (<= 1 MiB); GET of an old week's
#   observations.csv cold (first byte <= 100 ms, >= 100 MB/s) and warm (>= 0.9x nginx serving the
#   same file); a week of over 100 MB read by a client at 1 MB/s (all of it arrives, SHA-256 matching,
#   with the server's RSS during the read); /v1/prices/{gpu}/history against /v1/prices (>= 0.8x).
# Environment: LCG_BENCH_ARCHIVE_WEEKS (52), LCG_BENCH_ARCHIVE_ROWS (200000 a week),
# LCG_BENCH_ARCHIVE_BIG_ROWS (1600000: the big week), LCG_BENCH_ARCHIVE_SLOW_RATE (1000000 bytes/s).
# Uses run's helpers (figure, start_serve, start_nginx, wrk_run, vmrss, now) and its BIN and SCRATCH.

ARCHIVE_WEEKS=${LCG_BENCH_ARCHIVE_WEEKS:-52}
ARCHIVE_ROWS=${LCG_BENCH_ARCHIVE_ROWS:-200000}
# A week of over 100 MB of CSV, read by a client throttled to 1 MB/s (issue 15): about 100 s.
ARCHIVE_BIG_ROWS=${LCG_BENCH_ARCHIVE_BIG_ROWS:-1600000}
ARCHIVE_SLOW_RATE=${LCG_BENCH_ARCHIVE_SLOW_RATE:-1000000}
# The archive's weeks are past weeks, far from the sample data's: 2024-W02 onwards.
ARCHIVE_FIRST_MONDAY=2024-01-08
archive_week() { date -u -d "$ARCHIVE_FIRST_MONDAY + $1 weeks" +%G-W%V; }
archive_monday() { date -u -d "$ARCHIVE_FIRST_MONDAY + $1 weeks" +%Y-%m-%d; }

say "archive: $ARCHIVE_WEEKS published weeks of $ARCHIVE_ROWS observations each"
create_database lowcostgpu_archive "$BIN"
A_READER=$(url_for lowcostgpu_reader lowcostgpu_archive)
A_PUBLISHER=$(url_for lowcostgpu_publisher lowcostgpu_archive)
figure archive_weeks "$ARCHIVE_WEEKS"
figure archive_rows "$ARCHIVE_ROWS"

# archive_load FIRST COUNT: generates, imports and publishes weeks FIRST .. FIRST+COUNT-1.
archive_load() {
    local first=$1 count=$2 i
    python3 "$BENCH/make_observations.py" "$ARCHIVE_ROWS" "$(archive_monday "$first")" "$count" |
        "$BIN" import-observations --database-url "$A_PUBLISHER" - >/dev/null
    for i in $(seq "$first" $((first + count - 1))); do
        "$BIN" publish --database-url "$A_PUBLISHER" --week "$(archive_week "$i")" >/dev/null
    done
}

# archive_serve_figures LABEL: ready time (best of 3, exec -> /readyz 200) and RSS once ready.
archive_serve_figures() {
    hyperfine -N --runs 3 --warmup 1 --export-json "$SCRATCH/archive-startup-$1.json" \
        "$BENCH/startup_once.sh $BIN $A_READER $(free_port)" >/dev/null 2>"$SCRATCH/hyperfine.log" ||
        { cat "$SCRATCH/hyperfine.log" >&2; exit 1; }
    figure "archive_${1}_startup_s" \
        "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['min'])" "$SCRATCH/archive-startup-$1.json")"
    start_serve 1 "$SERVER_CPU" --database-url "$A_READER" --log-every 0
    sleep 1  # let the first snapshot settle
    figure "archive_${1}_rss_kib" "$(vmrss "${PIDS[-1]}")"
    kill "${PIDS[-1]}"; wait "${PIDS[-1]}" 2>/dev/null || true
    unset 'PIDS[-1]'
}

archive_load 0 1
archive_serve_figures 1w
t0=$(now)
archive_load 1 $((ARCHIVE_WEEKS - 1))
t1=$(now)
figure archive_load_s "$(python3 -c "print($t1 - $t0)")"
archive_serve_figures all

say "archive: two new weeks published while serve runs"
python3 "$BENCH/make_observations.py" "$ARCHIVE_ROWS" "$(archive_monday "$ARCHIVE_WEEKS")" 2 |
    "$BIN" import-observations --database-url "$A_PUBLISHER" - >/dev/null
start_serve 1 "$SERVER_CPU" --database-url "$A_READER" --log-every 0
A_PORT=$PORT A_PID=${PIDS[-1]}
for _ in $(seq 20); do curl -sf -o /dev/null "127.0.0.1:$A_PORT/v1/sheets"; done  # the worker's first answers
sleep 1
# archive_publish_new INDEX: publishes that week, then how long until /v1/sheets lists it (FIGURE
# archive_publish_seen_s), and the RSS a second later (archive_rss_kib).
archive_publish_new() {
    local week t0 t1
    week=$(archive_week "$1")
    "$BIN" publish --database-url "$A_PUBLISHER" --week "$week" >/dev/null
    t0=$(now)
    for _ in $(seq 1000); do
        curl -sf "127.0.0.1:$A_PORT/v1/sheets" | grep -q "\"$week\"" && break
        sleep 0.01
    done
    t1=$(now)
    if curl -sf "127.0.0.1:$A_PORT/v1/sheets" | grep -q "\"$week\""; then
        archive_seen_s=$(python3 -c "print($t1 - $t0)")
    else
        archive_seen_s=missing
    fi
    sleep 1
    archive_rss_kib=$(vmrss "$A_PID")
}
figure archive_start_rss_kib "$(vmrss "$A_PID")"
# The first rebuild after start costs a little once; the second new week shows what a week adds.
archive_publish_new "$ARCHIVE_WEEKS"
figure archive_first_publish_rss_kib "$archive_rss_kib"
archive_publish_new $((ARCHIVE_WEEKS + 1))
figure archive_after_publish_rss_kib "$archive_rss_kib"
if [ "$archive_seen_s" = missing ]; then
    figure archive_publish_missing "the new week was not listed within 10 s"
else
    figure archive_publish_seen_s "$archive_seen_s"
fi

say "archive: an old week's observations.csv, cold then warm, against nginx serving the same file"
# Cold: three weeks never asked for; the best of the three (a shared machine only slows a run).
for i in 1 2 $((ARCHIVE_WEEKS - 1)); do
    curl -s -o /dev/null -w '%{http_code} %{time_starttransfer} %{time_total} %{size_download}\n' \
        "127.0.0.1:$A_PORT/v1/sheets/$(archive_week "$i")/observations.csv" >>"$SCRATCH/archive-cold.txt"
done
grep -qv '^200 ' "$SCRATCH/archive-cold.txt" && { echo "a cold read failed:" >&2; cat "$SCRATCH/archive-cold.txt" >&2; exit 1; }
python3 - "$SCRATCH/archive-cold.txt" >>"$FIGURES" <<'PY'
import sys
rows = [tuple(map(float, line.split()[1:])) for line in open(sys.argv[1]) if line.strip()]
print(f"archive_cold_first_byte_s\t{min(r[0] for r in rows)}")
print(f"archive_cold_mb_per_s\t{max(r[2] / r[1] / 1e6 for r in rows)}")
print(f"archive_csv_bytes\t{int(rows[0][2])}")
PY
old="/v1/sheets/$(archive_week 1)/observations.csv"  # read once above: in the cache now
mkdir -p "$SCRATCH/www/v1/sheets/$(archive_week 1)"
curl -sf -o "$SCRATCH/www$old" "127.0.0.1:$A_PORT$old"
[ -f "$SCRATCH/www/v1/prices" ] || curl -sf -o "$SCRATCH/www/v1/prices" "127.0.0.1:$A_PORT/v1/prices"
start_nginx 1 "$SERVER_CPU"
A_NGINX=$PORT A_NGINX_PID=${PIDS[-1]}
cmp -s "$SCRATCH/www$old" <(curl -sf "127.0.0.1:$A_NGINX$old") || { echo "nginx serves other bytes" >&2; exit 1; }
saved_connections=$CONNECTIONS
CONNECTIONS=4  # each answer is megabytes: a few connections fill the loopback
for round in 1 2 3; do
    wrk_run archive_warm "$round" "$LOAD_CPU" 1 "http://127.0.0.1:$A_PORT$old"
    wrk_run archive_nginx "$round" "$LOAD_CPU" 1 "http://127.0.0.1:$A_NGINX$old"
done
CONNECTIONS=$saved_connections

say "archive: a week of $ARCHIVE_BIG_ROWS observations read by a client at $ARCHIVE_SLOW_RATE bytes/s"
# The week is sent as it is read, a chunk at a time as the client takes them: all of it arrives,
# hashing to the sheet's inputs_sha256, and the server does not hold the week meanwhile (its RSS
# sampled each second during the read).
big=$((ARCHIVE_WEEKS + 2))
python3 "$BENCH/make_observations.py" "$ARCHIVE_BIG_ROWS" "$(archive_monday "$big")" 1 |
    "$BIN" import-observations --database-url "$A_PUBLISHER" - >/dev/null
"$BIN" publish --database-url "$A_PUBLISHER" --week "$(archive_week "$big")" >/dev/null
for _ in $(seq 1000); do
    curl -sf "127.0.0.1:$A_PORT/v1/sheets" | grep -q "\"$(archive_week "$big")\"" && break
    sleep 0.01
done
big_sha=$(curl -sf "127.0.0.1:$A_PORT/v1/sheets/$(archive_week "$big")" |
    python3 -c "import json,sys; print(json.load(sys.stdin)['inputs_sha256'])")
figure archive_slow_rss_before_kib "$(vmrss "$A_PID")"
taskset -c "$LOAD_CPU" python3 "$BENCH/slow_read.py" "$A_PORT" "/v1/sheets/$(archive_week "$big")/observations.csv" \
    "$ARCHIVE_SLOW_RATE" >"$SCRATCH/slow-result.txt" &
slow_pid=$!
: >"$SCRATCH/slow-rss.txt"
while kill -0 "$slow_pid" 2>/dev/null; do
    vmrss "$A_PID" >>"$SCRATCH/slow-rss.txt"
    sleep 1
done
wait "$slow_pid" || true
read -r slow_status slow_bytes slow_length slow_sha slow_seconds <"$SCRATCH/slow-result.txt"
figure archive_slow_status "$slow_status"
figure archive_slow_bytes "$slow_bytes"
figure archive_slow_length "$slow_length"
figure archive_slow_seconds "$slow_seconds"
figure archive_slow_rate "$ARCHIVE_SLOW_RATE"
figure archive_slow_sha_matches "$([ "$slow_sha" = "$big_sha" ] && echo 1 || echo 0)"
figure archive_slow_rss_max_kib "$(sort -n "$SCRATCH/slow-rss.txt" | tail -n1)"
figure archive_slow_cache_bytes "$(curl -sf "127.0.0.1:$A_PORT/metrics" | awk '$1 == "lowcostgpu_archive_cache_bytes" { print $2 }')"

say "archive: /v1/prices/h100-sxm/history against /v1/prices, $ARCHIVE_WEEKS weeks and more in the series"
for round in 1 2 3; do
    wrk_run archive_history "$round" "$LOAD_CPU" 1 "http://127.0.0.1:$A_PORT/v1/prices/h100-sxm/history"
    wrk_run archive_prices "$round" "$LOAD_CPU" 1 "http://127.0.0.1:$A_PORT/v1/prices"
done
kill "$A_PID" "$A_NGINX_PID" 2>/dev/null || true
wait "$A_PID" "$A_NGINX_PID" 2>/dev/null || true
PIDS=()
