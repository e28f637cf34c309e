#!/usr/bin/env bash
# The connectors' default I/O threads, before (f63ea24: processors + 1 = 3) and after (one per processor = 2):
# LibrarySessions in four alternating runs, base, new, base, new, each its libraries strict beside virtual
# threads in the same rounds; each run's ratio to virtual threads is paired per round (paired.py).
set -u
cd /work/main
R=bench/results/v23-table/libraries
mkdir -p $R
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
run() { # label jar classpath-file
  "$JAVA" -Xmx1g -cp "$2:$(cat "$3")" dev.flow.bench.load.LibrarySessions --libraries=jedis,smtp,http \
      --modes=virtual,continuation-strict --sessions=500 --rounds=10 --warmup-rounds=6 > $R/$1.txt 2> $R/$1.err
  python3 bench/results/v22-connector-adaptive/paired.py $R/$1.txt > $R/$1-paired.txt
}
run base-1 /tmp/lead/s32/base.jar /tmp/lead/s32/cp.txt
run new-1 /tmp/lead/s32/new.jar /tmp/lead/s32/cp-new.txt
run base-2 /tmp/lead/s32/base.jar /tmp/lead/s32/cp.txt
run new-2 /tmp/lead/s32/new.jar /tmp/lead/s32/cp-new.txt
