#!/usr/bin/env bash
# #16, v42: every Flow socket's stream poll and write now also reads SocketTransport.handshaking (a volatile field,
# null unless TLS is layered over the socket). A/B of LibrarySessions on two libraries that read and write through
# Flow's sockets (Jedis, Commons Net SMTP), JDK 25, one JVM each, alternated.
# TREES: a folder holding base/ (327a789e, before) and cur/ (3cb574a0, after), each built with
# mvn -B -o -q package -DskipTests -pl bench -am.
# usage: TREES=<folder> ab42.sh OUT_DIR REPS; then ../v36-client-reads/paired.py on each output.
OUT=$1; REPS=$2
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for rep in $(seq 1 "$REPS"); do
  for v in base cur; do
    tree=${TREES:?}/$v
    $J25 -Xmx1g -cp "$tree/bench/target/benchmarks.jar:$(cat "$tree/bench/target/library-classpath.txt")" \
      dev.flow.bench.load.LibrarySessions --libraries=jedis,smtp --sessions=500 \
      --modes=virtual,continuation --rounds=12 --warmup-rounds=8 > "$OUT/libs-$v-$rep.txt" 2>&1
  done
done
