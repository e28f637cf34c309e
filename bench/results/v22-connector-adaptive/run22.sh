#!/usr/bin/env bash
# The library sessions on the connectors' Dispatch.ADAPTIVE (RESULTS "Client libraries on the connectors'
# Dispatch.ADAPTIVE"). JAR: the bench jar of 8297c3c (bench/target/benchmarks.jar), CP: its
# target/library-classpath.txt, both copied aside first; JDK 25; nothing else running.
set -eu
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
run() { "$JAVA" -Xmx1g -cp "$JAR:$(cat "$CP")" dev.flow.bench.load.LibrarySessions "$@"; }
run --libraries=jedis,smtp,http --modes=threads,virtual,continuation,continuation-strict,continuation-strict-workers \
    --sessions=500 --rounds=20 --warmup-rounds=4 > sessions-500-jdk25.txt
run --libraries=pgjdbc-queries --modes=threads,virtual,continuation,continuation-strict \
    --sessions=200 --rounds=10 --warmup-rounds=3 > pgjdbc-queries-200-jdk25.txt
run --libraries=jedis,smtp --modes=virtual,continuation-strict,continuation-strict-workers \
    --sessions=2000 --rounds=12 --warmup-rounds=4 > sessions-2000-jdk25.txt
for f in sessions-500-jdk25.txt sessions-2000-jdk25.txt pgjdbc-queries-200-jdk25.txt; do python3 paired.py "$f"; done
