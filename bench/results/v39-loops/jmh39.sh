#!/usr/bin/env bash
# #16, v39: the loop benchmarks with and without ReducibleLoops. $NOPASS: a tree at the same commit whose EngineRun
# returns the shrunk class without ReducibleLoops.apply (one-line patch, not committed); $CUR: the change. Both built
# with `mvn -B -o -q package -DskipTests -pl bench -am`. Alternated REPS times, JDK 25, one JMH fork each.
# usage: NOPASS=<tree> CUR=<tree> jmh39.sh OUT_DIR REPS
OUT=$1; REPS=$2
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$OUT"
for rep in $(seq 1 "$REPS"); do
  for v in nopass cur; do
    if [ "$v" = nopass ]; then tree=${NOPASS:?}; else tree=${CUR:?}; fi
    $J25 -jar "$tree/bench/target/benchmarks.jar" -f 1 -wi 3 -w 1s -i 5 -r 1s \
      'InstrumentedLoopBenchmark|InstrumentedFrameBenchmark.insideFlow' -p loading=plain,instrumented \
      > "$OUT/jmh-$v-$rep.txt" 2>&1
  done
done
