#!/usr/bin/env bash
# A good client's latency while a connect-then-reset flood runs in a process of its own (#14).
# HostileLatency measures the good client alone ("none"), then during a one-connection "trickle" phase
# that stands for "attacked": as each mode's "none" phase ends, ResetFlood floods that mode's server from
# a second JVM for most of the next phase. Usage: bench/hostile-external-flood.sh [CONNECTIONS] [REQUESTS]
set -euo pipefail
JAR=${JAR:-bench/target/benchmarks.jar}
FLOOD=${1:-14000}
REQUESTS=${2:-6000}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
java -cp "$JAR" dev.flow.bench.hostile.HostileLatency --modes continuation-io-threads,continuation,sync \
  --attacks none,trickle --tricklers 1 --requests "$REQUESTS" --warmup 2000 > "$LOG" 2>&1 &
driver=$!
for m in 1 2 3; do
  for _ in $(seq 1 600); do [ "$(grep -c '| none |' "$LOG")" -ge "$m" ] && break; sleep 0.2; done
  port=$(grep -o 'on port [0-9]*' "$LOG" | sed -n "${m}p" | awk '{print $3}')
  sleep 1
  java -cp "$JAR" dev.flow.bench.hostile.ResetFlood "$port" "$FLOOD" 2
  for _ in $(seq 1 600); do [ "$(grep -c '| trickle |' "$LOG")" -ge "$m" ] && break; sleep 0.2; done
done
wait "$driver"
grep '^| ' "$LOG"
