#!/usr/bin/env bash
# #16: the default connector with one I/O thread (-Dexp.io=1) against its default of one per processor (2), pgjdbc-selects,
# 500 sessions, 10 rounds after 6 warm-ups, alternated twice. JAR: a bench jar built with ../default-connector-io-threads.patch
# (an experiment, not in the code).
cd "$(dirname "$0")/../../../.."
CP=$(cat bench/target/library-classpath.txt)
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=${JAR:?the bench jar built with default-connector-io-threads.patch}
for rep in 1 2; do
  for io in 2 1; do
    $J25 -Xmx1g -Dexp.io=$io -cp $JAR:$CP dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-selects --sessions=500 \
      --modes=virtual,continuation,continuation-strict --rounds=10 --warmup-rounds=6 > bench/results/v35-syscalls/io-threads/io$io-$rep.txt 2>&1
    python3 bench/results/v32-huge-methods/pg32.py bench/results/v35-syscalls/io-threads/io$io-$rep.txt > bench/results/v35-syscalls/io-threads/io$io-$rep-paired.txt 2>&1
  done
done
