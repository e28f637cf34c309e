#!/usr/bin/env bash
# #16, v43 experiment (not in the code): the default connector's I/O threads for pgjdbc's selects, 1 against 2 (one per
# processor, the default). exp/ holds the bench jar and library-classpath.txt of cfdde51d with exp-io.patch applied
# (-Dexp.io sets FlowSocketFactory's default connector's ioProcessors). Alternated REPS times, one client JVM each,
# JDK 25, 500 sessions, 10 rounds after 6 warm-ups. usage: abio.sh REPS; then ../../v36-client-reads/paired.py on each.
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for rep in $(seq 1 "$1"); do
  for io in 1 2; do
    $J25 -Xmx1g -Dexp.io=$io -cp "exp/benchmarks.jar:$(cat exp/library-classpath.txt)" dev.flow.bench.load.LibrarySessions \
      --libraries=pgjdbc-selects --sessions=500 --modes=virtual,continuation --rounds=10 \
      --warmup-rounds=6 > "io$io-$rep.txt" 2>&1
  done
done
