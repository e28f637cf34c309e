#!/usr/bin/env bash
# #16: the engine's capture and restore code shrunk (HugeMethodShrink) against the code before it, on pgjdbc:
# pgjdbc-selects and pgjdbc-queries, 500 sessions on 2 workers, 12 rounds after 6 warm-ups, virtual threads and both
# continuation modes rotated, JDK 25. Three client JVMs per load, run one after another: the jar before, HotSpot's
# defaults ("before-default"); the jar after, defaults ("after-default"); the jar after, -XX:-DontCompileHugeMethods
# ("after-huge"). Usage: run34.sh BEFORE_JAR AFTER_JAR [OUT]; the class path from bench/target/library-classpath.txt.
set -u
cd "$(dirname "$0")/../../.."
R=${3:-bench/results/v34-shrink}
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for lib in pgjdbc-selects pgjdbc-queries; do
  for run in before-default after-default after-huge; do
    opts="-Xmx1g"; [ $run = after-huge ] && opts="$opts -XX:-DontCompileHugeMethods"
    jar=$2; [ $run = before-default ] && jar=$1
    $J25 $opts -cp $jar:$CP dev.flow.bench.load.LibrarySessions --libraries=$lib --sessions=500 \
      --modes=virtual,continuation,continuation-strict --rounds=12 --warmup-rounds=6 > $R/$lib-$run.txt 2>&1
    python3 bench/results/v32-huge-methods/pg32.py $R/$lib-$run.txt > $R/$lib-$run-paired.txt 2>&1
  done
done
