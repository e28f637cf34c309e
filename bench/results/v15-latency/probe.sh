#!/bin/bash
# JAR: a bench jar with dev.flow.bench.hostile.LatencyProbe; OUTDIR gets log.txt (client summaries) per mode
# usage: probe.sh JAR OUTDIR MODES...  (JDK 25, server -Xmx64m, client default)
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=$1; OUT=$2; shift 2
mkdir -p $OUT
for m in "$@"; do
  fifo=$OUT/stdin-$m; rm -f $fifo; mkfifo $fifo
  $J25 -Xmx64m -cp $JAR dev.flow.bench.hostile.LatencyProbe server $m < $fifo > $OUT/server-$m.txt 2>&1 &
  spid=$!
  exec 9> $fifo
  for i in $(seq 100); do grep -q '^port ' $OUT/server-$m.txt 2>/dev/null && break; sleep 0.1; done
  port=$(grep '^port ' $OUT/server-$m.txt | cut -d' ' -f2)
  echo "== $m $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
  timeout 300 $J25 -cp $JAR dev.flow.bench.hostile.LatencyProbe client $port 5000 3500 >> $OUT/log.txt 2>&1
  exec 9>&-
  wait $spid
  rm -f $fifo
done
