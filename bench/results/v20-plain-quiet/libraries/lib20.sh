#!/bin/bash
# LibrarySessions jedis+smtp, 500 sessions, base (without write coalescing, /tmp/lead/base20.jar) and head
# (with it, /tmp/lead/io20.jar), interleaved pairs; JDK 25; the libraries' class path of bench/target.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
LCP=$(cat /work/main/bench/target/library-classpath.txt)
for pair in $(seq 1 "${1:-2}"); do for v in base head; do
  jar=/tmp/lead/base20.jar; [ $v = head ] && jar=/tmp/lead/io20.jar
  echo "=== pair $pair variant $v start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $J -Xmx1g -Ddev.flow.loader.cache=off -cp $jar:$LCP dev.flow.bench.load.LibrarySessions --libraries=${LIBS:-jedis,smtp} \
      --modes=virtual,continuation --sessions=500 --rounds=8 --warmup-rounds=8 2>&1 | grep -v "^  \[server\]"
  echo "=== pair $pair variant $v end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
done; done
