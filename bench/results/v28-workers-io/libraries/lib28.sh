#!/usr/bin/env bash
# LibrarySessions with the WORKERS connector (continuation-strict-workers) beside virtual threads, base jar then new, twice.
set -u
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
CP=$(cat /tmp/lead/s37/cp.txt)
OUT=${OUT:-/tmp/lead/s37/libs}
for pass in 1 2; do
  for jar in base new; do
    J=/tmp/lead/s37/len.jar; [ $jar = new ] && J=/tmp/lead/s37/new.jar
    $J25 -Xmx1g -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=jedis,smtp --sessions=500 \
      --modes=virtual,continuation-strict-workers --rounds=12 --warmup-rounds=6 > $OUT/workers-conn-$jar-$pass-jdk25.txt 2>&1
  done
done
