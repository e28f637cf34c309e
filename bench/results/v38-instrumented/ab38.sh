#!/usr/bin/env bash
# #16, v38: Engine.current() without the engine's thread-local off Flow's threads, A/B. Two frozen class paths
# (the bench jar and copies of the modules' jars; bench/target/library-classpath.txt names jars the next build
# overwrites): $CPS/base (main at ee21642c with the virtual-instrumented mode) and $CPS/cur (the same with this
# change to flow-core), alternated REPS times per library, each run a client JVM of its own (JDK 25, 500 sessions).
# usage: CPS=<dir> ab38.sh OUT_DIR REPS; then ../v36-client-reads/paired.py on each output.
OUT=$1; REPS=$2
CPS=${CPS:?directory of frozen classpaths}
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$OUT"
for rep in $(seq 1 "$REPS"); do
  for spec in pgjdbc-selects:10:6 smtp:30:15; do
    IFS=: read -r lib rounds warmup <<< "$spec"
    for v in base cur; do
      $J25 -Xmx1g -cp "$(cat "$CPS/$v/cp.txt")" dev.flow.bench.load.LibrarySessions --libraries="$lib" --sessions=500 \
        --modes=virtual,virtual-instrumented,continuation --rounds="$rounds" --warmup-rounds="$warmup" \
        > "$OUT/$lib-$v-$rep.txt" 2>&1
    done
  done
done
