#!/usr/bin/env bash
# #16, v43: LibrarySessions pgjdbc-selects with the instrumented modes' sockets as they were (base: the bench jar of
# 005e9686, where the loader made pgjdbc's own SocketFactory.getDefault() Flow's) and as they are (cur: that of
# cfdde51d, the JDK's). BASE_DIR/base and BASE_DIR/cur each hold benchmarks.jar and library-classpath.txt. One client
# JVM per run, JDK 25, 500 sessions, 10 rounds after 6 warm-ups; base-1 ran first, alone, then cur-1 base-2 cur-2.
# usage: ab43.sh RUN... (e.g. cur-1 base-2 cur-2); then ../v36-client-reads/paired.py on each output (paired.txt).
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for run in "$@"; do
  v=${run%-*}
  $J25 -Xmx1g -cp "$v/benchmarks.jar:$(cat $v/library-classpath.txt)" dev.flow.bench.load.LibrarySessions \
    --libraries=pgjdbc-selects --sessions=500 --modes=virtual,virtual-instrumented,continuation --rounds=10 \
    --warmup-rounds=6 > "$run.txt" 2>&1
done
