#!/usr/bin/env bash
# Diagnostic build: I/O processor turn lengths under a 40,000-reset flood, bounded vs unbounded, io-threads and workers.
set -u
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
JAR=/tmp/hostile/bench-diag.jar
OUT=/work/wt/hostile/bench/results/v10-accept/io-turns-under-flood-diagnostic-jdk25.txt
run() {
  local label=$1 dispatch=$2; shift 2
  local log=$(mktemp)
  $J25/java -Xmx64m -cp $JAR dev.flow.samples.http.HttpServer --port 0 --mode continuation --workers 2 --dispatch $dispatch "$@" > $log 2>&1 &
  local pid=$!
  local port=""
  for _ in $(seq 1 300); do port=$(grep -o 'listening on 127.0.0.1:[0-9]*' $log | sed 's/.*://'); [ -n "$port" ] && break; sleep 0.2; done
  curl -s -m 10 -o /dev/null http://127.0.0.1:$port/
  $J25/java -cp $JAR dev.flow.bench.hostile.ResetFlood $port 40000 2 60 > $log.flood 2>&1
  local ok=$(curl -s -m 10 -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/ || echo fail)
  kill $pid; wait $pid 2>/dev/null
  echo "| $label | $dispatch | $(grep -o 'DIAG.*' $log) | $(tail -1 $log.flood) | GET / after: $ok | load $(cut -d' ' -f1 /proc/loadavg) |" >> $OUT
  rm -f $log $log.flood
}
for r in 1 2; do
  run bounded-256 io-threads
  run unbounded io-threads --max-starting-sessions 1000000
  run bounded-256 workers
  run unbounded workers --max-starting-sessions 1000000
done
