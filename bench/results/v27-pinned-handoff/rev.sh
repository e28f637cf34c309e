#!/usr/bin/env bash
# The non-pinning libraries again, new jar first, then base (run27.sh ran base first).
set -eu
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
run() { "$JAVA" -Xmx1g -cp "$JAR:$(cat "$CP")" dev.flow.bench.load.LibrarySessions "$@"; }
for v in new base; do
  JAR=$v.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=12 --warmup-rounds=10 > sessions-500-$v-2-jdk25.txt
done
for f in sessions-500-*-2-jdk25.txt; do python3 ../v22-connector-adaptive/paired.py "$f" > "${f%.txt}-paired.txt"; done
