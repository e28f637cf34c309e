#!/usr/bin/env bash
# #16, v39: loops entered through their headers (ReducibleLoops), A/B. Two built trees: $BASE (main at b304a1ac, before)
# and $CUR (with the change), each with bench/target/benchmarks.jar and bench/target/library-classpath.txt. Alternated
# REPS times, one JVM each, JDK 25: InstrumentedFrameBenchmark inside a flow (FrameChain's call() is a loop around the
# chain), then LibrarySessions pgjdbc-selects, 500 sessions, 10 rounds after 6 warm-ups.
# usage: BASE=<tree> CUR=<tree> ab39.sh OUT_DIR REPS; then ../v36-client-reads/paired.py on each LibrarySessions output.
OUT=$1; REPS=$2
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$OUT"
for rep in $(seq 1 "$REPS"); do
  for v in base cur; do
    if [ "$v" = base ]; then tree=${BASE:?}; else tree=${CUR:?}; fi
    $J25 -jar "$tree/bench/target/benchmarks.jar" -f 1 -wi 3 -w 1s -i 5 -r 1s 'InstrumentedFrameBenchmark.insideFlow' \
      -p loading=instrumented > "$OUT/frames-$v-$rep.txt" 2>&1
  done
done
for rep in $(seq 1 "$REPS"); do
  for v in base cur; do
    if [ "$v" = base ]; then tree=$BASE; else tree=$CUR; fi
    $J25 -Xmx1g -cp "$tree/bench/target/benchmarks.jar:$(cat "$tree/bench/target/library-classpath.txt")" \
      dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-selects --sessions=500 \
      --modes=virtual,virtual-instrumented,continuation --rounds=10 --warmup-rounds=6 > "$OUT/pgjdbc-selects-$v-$rep.txt" 2>&1
  done
done
