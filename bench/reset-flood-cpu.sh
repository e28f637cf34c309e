#!/usr/bin/env bash
# Server CPU per reset connection, by thread (#14): starts the HTTP sample (or a baseline) with -Xmx64m,
# warms it with a reset flood from a JVM of its own, then reads every thread's CPU time
# (/proc/PID/task/*/stat, user + system) around a second, measured flood, and prints microseconds per
# reset connection per thread group and for the whole process (threads that ended included).
# Usage: bench/reset-flood-cpu.sh MODE [CONNECTIONS] [RATE] [WARMUP]
#   MODE: sync | continuation | continuation-io-threads | baseline-blocking | baseline-virtual (JDK 21+)
#   defaults: 10000 connections at most 2000/s, after 20000 for warm-up; JAVA (default java), JAR.
set -euo pipefail
MODE=${1:?mode}; N=${2:-10000}; RATE=${3:-2000}; WARM=${4:-20000}
JAVA=${JAVA:-java}; JAR=${JAR:-bench/target/benchmarks.jar}
case $MODE in
  sync) args="dev.flow.samples.http.HttpServer --port 0 --mode sync";;
  continuation) args="dev.flow.samples.http.HttpServer --port 0 --mode continuation --workers 2";;
  continuation-io-threads) args="dev.flow.samples.http.HttpServer --port 0 --mode continuation --workers 2 --dispatch io-threads";;
  baseline-blocking) args="dev.flow.bench.load.LoadServer --mode=sync --protocol=http";;
  baseline-virtual) args="dev.flow.bench.load.LoadServer --mode=virtual --protocol=http";;
  *) echo "MODE: $MODE (expected: sync, continuation, continuation-io-threads, baseline-blocking or baseline-virtual)" >&2; exit 2;;
esac
OUT=$(mktemp); SNAP=$(mktemp)
# shellcheck disable=SC2086
"$JAVA" -Xmx64m -cp "$JAR" $args > "$OUT" 2>&1 < <(sleep 3600) &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$OUT" "$SNAP"' EXIT
for _ in $(seq 1 600); do grep -q 'listening on\|LISTENING' "$OUT" && break; sleep 0.2; done
port=$(grep -o 'listening on 127.0.0.1:[0-9]*\|LISTENING [0-9]*' "$OUT" | head -1 | grep -o '[0-9]*$')
"$JAVA" -cp "$JAR" dev.flow.bench.hostile.ResetFlood "$port" "$WARM" 2 600 "$RATE" > /dev/null
sleep 2
cpu() {  # one line per thread "tid name utime stime", then "process - utime stime" (clock ticks)
  for t in /proc/"$1"/task/*; do
    printf '%s %s %s\n' "${t##*/}" "$(tr ' ' '_' < "$t/comm")" "$(sed 's/.*) //' "$t/stat" | awk '{print $12, $13}')" 2>/dev/null || true
  done
  echo "process - $(sed 's/.*) //' /proc/"$1"/stat | awk '{print $12, $13}')"
}
cpu $pid > "$SNAP"
flood=$("$JAVA" -cp "$JAR" dev.flow.bench.hostile.ResetFlood "$port" "$N" 2 600 "$RATE" | tail -1)
sleep 3
echo "$MODE: $flood; load average $(cut -d' ' -f1 /proc/loadavg)"
cpu $pid | awk -v n="$N" -v hz="$(getconf CLK_TCK)" -v before="$SNAP" '
  BEGIN { while ((getline l < before) > 0) { split(l, f, " "); bu[f[1]] = f[3]; bs[f[1]] = f[4] } }
  { name = ($1 == "process") ? "-" : $2; gsub(/[0-9]+/, "N", name); u[name] += $3 - bu[$1]; s[name] += $4 - bs[$1] }
  END {
    for (k in u) if (u[k] + s[k] > 0) printf "  %-24s %7.1f us/conn (user %.1f, sys %.1f)\n", (k == "-" ? "process (ended too)" : k),
        (u[k] + s[k]) * 1e6 / hz / n, u[k] * 1e6 / hz / n, s[k] * 1e6 / hz / n
  }' | sort -k2 -n -r
