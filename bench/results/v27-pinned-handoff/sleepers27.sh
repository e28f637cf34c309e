#!/usr/bin/env bash
# 1,000 sleepers of 100 ms, each holding a monitor across its sleep (Sleepers --pinned: a flow pins there),
# on 2 workers: the hand-off to spare threads (default maxPinnedThreads 256) against none (0, the behaviour
# before), beside virtual threads (JDK 25 unmounts them in synchronized, JEP 491) and a platform thread each.
# JAR: the bench jar of this change. One JVM per line, nothing else running.
set -eu
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
J17=${J17:-java}
s() { "$1" -Xmx1g -cp "$JAR" dev.flow.bench.load.Sleepers --pinned --n=1000 --sleep-ms=100 "${@:2}" 2>&1 | grep SLEEPERS; }
for i in 1 2 3; do
  s "$J25" --mode=continuation
  s "$J25" --mode=virtual
  s "$J25" --mode=platform
  s "$J17" --mode=continuation
done
s "$J25" --mode=continuation --max-pinned-threads=0
s "$J25" --mode=continuation --max-pinned-threads=16
