#!/usr/bin/env bash
# #16: pgjdbc's sessions, 500 on 2 workers against virtual threads, with PostgreSQL's CPU beside the client's:
# pgjdbc-selects (no catalog change) and pgjdbc-queries (a temporary table per session), each in a client JVM
# with HotSpot's defaults and in one with -XX:-DontCompileHugeMethods (pgjdbc's processResults is 11,601 bytes
# instrumented, over the 8,000 HotSpot compiles). JDK 25, 12 rounds after 6 warm-ups, modes rotated, nothing else
# running. Usage: run32.sh [BENCH_JAR] (default bench/target/benchmarks.jar); the class path from
# bench/target/library-classpath.txt.
set -u
cd "$(dirname "$0")/../../.."
J=${1:-bench/target/benchmarks.jar}
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
R=bench/results/v32-huge-methods
for lib in pgjdbc-selects pgjdbc-queries; do
  for jvm in default huge; do
    opts="-Xmx1g"; [ $jvm = huge ] && opts="$opts -XX:-DontCompileHugeMethods"
    $J25 $opts -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=$lib --sessions=500 \
      --modes=virtual,continuation,continuation-strict --rounds=12 --warmup-rounds=6 > $R/$lib-500-$jvm-jdk25.txt 2>&1
    python3 $R/pg32.py $R/$lib-500-$jvm-jdk25.txt > $R/$lib-500-$jvm-jdk25-paired.txt 2>&1
  done
done
