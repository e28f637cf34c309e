#!/usr/bin/env bash
# Sessions alive and live heap of the HTTP sample (io-threads, -Xmx64m) during an unpaced 40,000-reset
# flood, bounded accept (the default 256) against unbounded (--max-starting-sessions 1000000), two
# interleaved runs each, JDK 25. Appends a Markdown row per run to $OUT. Usage: bench/accept-backlog.sh
set -u
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin}
JAR=${JAR:-bench/target/benchmarks.jar}
OUT=${OUT:-bench/results/v10-accept/backlog-under-flood-jdk25.txt}
run() {
  local label=$1; shift
  local log=$(mktemp)
  $J25/java -Xmx64m -cp $JAR dev.flow.samples.http.HttpServer --port 0 --mode continuation --workers 2 --dispatch io-threads "$@" > $log 2>&1 &
  local pid=$!
  local port=""
  for _ in $(seq 1 300); do port=$(grep -o 'listening on 127.0.0.1:[0-9]*' $log | sed 's/.*://'); [ -n "$port" ] && break; sleep 0.2; done
  local t0=$(date +%s.%N)
  $J25/java -cp $JAR dev.flow.bench.hostile.ResetFlood $port 40000 2 60 > $log.flood 2>&1 &
  local fpid=$!
  local maxs=0 maxh=0 samples=""
  while kill -0 $fpid 2>/dev/null; do
    local h=$($J25/jcmd $pid GC.class_histogram 2>/dev/null)
    local s=$(echo "$h" | awk '$4=="org.apache.mina.transport.socket.nio.NioSocketSession"{print $2}')
    local b=$(echo "$h" | awk '/^Total/{print $3}')
    s=${s:-0}; b=${b:-0}
    samples="$samples $s"
    [ "$s" -gt "$maxs" ] && maxs=$s
    [ "$b" -gt "$maxh" ] && maxh=$b
    sleep 0.5
  done
  local flood=$(tail -1 $log.flood)
  local ok=$(curl -s -m 10 -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/ || echo fail)
  local oom=$(grep -c OutOfMemoryError $log)
  kill $pid; wait $pid 2>/dev/null
  echo "| $label | $maxs | $((maxh/1024/1024)) | $oom | $ok | $flood | $(cut -d' ' -f1-3 /proc/loadavg) | samples:$samples" >> $OUT
  rm -f $log $log.flood
}
echo "| accept | most NioSocketSession alive (live objects, sampled ~2/s) | most live heap MB | OutOfMemoryError lines | GET / after | flood | load average | samples |" >> $OUT
for r in 1 2; do
  run bounded-256
  run unbounded --max-starting-sessions 1000000
done
