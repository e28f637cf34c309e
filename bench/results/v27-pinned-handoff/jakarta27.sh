#!/usr/bin/env bash
# Jakarta Mail (Eclipse Angus), which pins at every wait (its protocol methods are synchronized), sending one
# message per session to the SMTP sample, 500 sessions, loaded lenient: the flows' scheduler with
# maxPinnedThreads 256 (the default) and 0 (the behaviour before the hand-off), beside virtual threads and a
# platform thread per session. JDK 25, nothing else running. JAR, CP: the bench jar and its
# target/library-classpath.txt, copied aside.
set -eu
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
run() { "$JAVA" -Xmx1g -cp "$JAR:$(cat "$CP")" dev.flow.bench.load.LibrarySessions "$@"; }
run --libraries=jakarta-mail --modes=virtual,threads,continuation --sessions=500 --rounds=20 --warmup-rounds=5 \
  > jakarta-mail-500-jdk25.txt
run --libraries=jakarta-mail --modes=virtual,threads,continuation --sessions=500 --rounds=20 --warmup-rounds=5 \
  --max-pinned-threads=0 > jakarta-mail-500-max0-jdk25.txt
for f in jakarta-mail-500-*jdk25.txt; do python3 ../v22-connector-adaptive/paired.py "$f" > "${f%.txt}-paired.txt"; done
