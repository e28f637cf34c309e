#!/bin/bash
# usage: lib.sh [PAIR NUMBERS] (default 1 2 3); base (integ 54e65af + the benchmark) / head (the fast path), interleaved, JDK 25
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for pair in ${@:-1 2 3}; do for v in base head; do
  CP=/tmp/monitor-$v/benchmarks.jar:$(cat /tmp/monitor-$v/library-classpath.txt)
  echo "=== pair $pair variant $v start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $J -Xmx1g -Ddev.flow.loader.cache=off -cp $CP dev.flow.bench.load.LibrarySessions --libraries=smtp,jedis --modes=virtual,continuation --sessions=500 --rounds=8 --warmup-rounds=8 2>&1 | grep -v "^  \[server\]"
  echo "=== pair $pair variant $v end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
done; done
