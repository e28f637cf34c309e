#!/bin/bash
cd /tmp/cpu-ab
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
CP=/tmp/cpu-base/benchmarks.jar:$(cat /tmp/cpu-base/library-classpath.txt)
for pair in 1 2 3; do for v in base always; do
  P=""; [ $v = always ] && P=-Dflow.mina.directReads=always
  echo "=== pair $pair variant $v start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $J -Xmx1g -Ddev.flow.loader.cache=off $P -cp $CP dev.flow.bench.load.LibrarySessions --libraries=jedis,smtp,http --modes=virtual,continuation --sessions=500 --rounds=3 --warmup-rounds=3 2>&1 | grep -v "^  \[server\]"
  echo "=== pair $pair variant $v end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
done; done
