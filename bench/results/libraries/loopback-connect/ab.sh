#!/bin/bash
# Interleaved A/B of the client JVM: base (main 18f5875, MINA's NioSocketConnector) vs head (566b8b5,
# FlowSocketConnector: loopback connects made on the calling thread). Jars built with
# `mvn -B -o -q -pl bench -am package -DskipTests` in each tree and copied to /tmp/connect-ab/{base,head}.
# Usage: [LIBS=smtp] ab.sh PAIRS > out.txt
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
cd /tmp/connect-ab
for pair in $(seq 1 "${1:-3}"); do for v in base head; do
  CP=/tmp/connect-ab/$v/benchmarks.jar:$(cat /tmp/connect-ab/$v/library-classpath.txt)
  echo "=== pair $pair variant $v start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $J -Xmx1g -Ddev.flow.loader.cache=off -cp $CP dev.flow.bench.load.LibrarySessions --libraries=${LIBS:-jedis,smtp} \
      --modes=virtual,continuation --sessions=500 --rounds=8 --warmup-rounds=8 2>&1 | grep -v "^  \[server\]"
  echo "=== pair $pair variant $v end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
done; done
