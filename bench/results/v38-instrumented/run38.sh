#!/usr/bin/env bash
# #16, v38: what the instrumented code costs by itself. Each library in its own client JVM, JDK 25, 500 sessions;
# modes (rotated round by round): virtual threads, the continuation loader's classes on virtual threads over the
# JDK's sockets (virtual-instrumented: nothing suspends) and continuations. pgjdbc-selects 10 rounds after 6 warm-ups;
# the sample servers' libraries, whose rounds are short, 30 after 15 (as v36's libs30).
# usage: CP=<classpath: the bench jar and the library class path> run38.sh OUT_DIR REP
OUT=$1; REP=${2:-1}
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$OUT"
for spec in pgjdbc-selects:10:6 jedis:30:15 http:30:15 smtp:30:15; do
  IFS=: read -r lib rounds warmup <<< "$spec"
  $J25 -Xmx1g -cp "${CP:?}" dev.flow.bench.load.LibrarySessions --libraries="$lib" --sessions=500 \
    --modes=virtual,virtual-instrumented,continuation --rounds="$rounds" --warmup-rounds="$warmup" > "$OUT/$lib-$REP.txt" 2>&1
done
