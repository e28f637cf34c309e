#!/usr/bin/env bash
# Pinned waits hand their worker's place to a spare thread (FlowScheduler.Builder.maxPinnedThreads):
# pgjdbc with its connect (which pins, in a constructor) at 500 sessions, on the jar before (base.jar, the
# bench jar of f4428fc; main's flow code is the same up to 58cc5c9) and after (new.jar), JDK 25, beside
# virtual threads; then the libraries that do not pin, to check that nothing else moved. Nothing else ran.
# JAR, CP: the bench jar and its target/library-classpath.txt, copied aside.
set -eu
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
run() { "$JAVA" -Xmx1g -cp "$JAR:$(cat "$CP")" dev.flow.bench.load.LibrarySessions "$@"; }
for v in base new; do
  JAR=$v.jar run --libraries=pgjdbc --modes=virtual,continuation --sessions=500 --rounds=10 --warmup-rounds=5 > pgjdbc-500-$v-jdk25.txt
done
for v in base new; do
  JAR=$v.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=12 --warmup-rounds=10 > sessions-500-$v-jdk25.txt
done
for f in pgjdbc-500-{base,new}-jdk25.txt sessions-500-{base,new}-jdk25.txt; do python3 ../v22-connector-adaptive/paired.py "$f" > "${f%.txt}-paired.txt"; done
