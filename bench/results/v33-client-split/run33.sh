#!/usr/bin/env bash
# #16: pgjdbc's sessions with the client's CPU split (JIT compiler threads, GC threads, the rest) and its allocation:
# pgjdbc-selects and pgjdbc-queries, 500 sessions on 2 workers, 12 rounds after 6 warm-ups, virtual threads and both
# continuation modes rotated, JDK 25, a client JVM with HotSpot's defaults and one with -XX:-DontCompileHugeMethods.
# Usage: run33.sh [BENCH_JAR] [OUT] (defaults bench/target/benchmarks.jar, this directory); the class path from
# bench/target/library-classpath.txt.
set -u
cd "$(dirname "$0")/../../.."
J=${1:-bench/target/benchmarks.jar}
R=${2:-bench/results/v33-client-split}
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for lib in pgjdbc-selects pgjdbc-queries; do
  for jvm in huge default; do
    opts="-Xmx1g"; [ $jvm = huge ] && opts="$opts -XX:-DontCompileHugeMethods"
    $J25 $opts -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=$lib --sessions=500 \
      --modes=virtual,continuation,continuation-strict --rounds=12 --warmup-rounds=6 > $R/$lib-500-$jvm-jdk25.txt 2>&1
    python3 bench/results/v32-huge-methods/pg32.py $R/$lib-500-$jvm-jdk25.txt > $R/$lib-500-$jvm-jdk25-paired.txt 2>&1
  done
done
