#!/usr/bin/env bash
# #16, v40: Flow's sockets start with TCP_NODELAY off, as the JDK's. A/B of LibrarySessions on the two libraries
# that leave the option as they find it (Commons Net SMTP, Jakarta Mail), JDK 25, one JVM each, alternated.
# TREES: a folder holding base/ (before) and cur/ (after), each built with mvn -B -o -q package -DskipTests -pl bench -am.
# usage: TREES=<folder> ab40.sh OUT_DIR REPS; then ../v36-client-reads/paired.py on each output.
OUT=$1; REPS=$2
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for rep in $(seq 1 "$REPS"); do
  for v in base cur; do
    tree=${TREES:?}/$v
    $J25 -Xmx1g -cp "$tree/bench/target/benchmarks.jar:$(cat "$tree/bench/target/library-classpath.txt")" \
      dev.flow.bench.load.LibrarySessions --libraries=smtp,jakarta-mail --sessions=500 \
      --modes=virtual,continuation --rounds=12 --warmup-rounds=8 > "$OUT/mail-$v-$rep.txt" 2>&1
  done
done
