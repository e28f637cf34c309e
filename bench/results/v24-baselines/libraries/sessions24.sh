#!/usr/bin/env bash
# #16's open row: Jedis and Commons Net SMTP at 2,000 sessions, strict on the default (ADAPTIVE) connector
# beside virtual threads, 20 rounds after 4 warm-ups. JAR: the bench jar of 78f83b4 and CP: its
# target/library-classpath.txt, copied aside; JDK 25; nothing else running.
set -eu
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAR=${JAR:-/tmp/lead/s33/new.jar}
CP=${CP:-/tmp/lead/s33/lib-cp.txt}
"$JAVA" -Xmx1g -cp "$JAR:$(cat "$CP")" dev.flow.bench.load.LibrarySessions --libraries=jedis,smtp \
    --modes=virtual,continuation-strict --sessions=2000 --rounds=20 --warmup-rounds=4 > sessions-2000-jdk25.txt
python3 ../../v22-connector-adaptive/paired.py sessions-2000-jdk25.txt > sessions-2000-paired.txt
# The same after 15 warm-up rounds: at 4, the strict client's CPU per round was still falling (C2 compiled the
# instrumented code until about 18 s into the run, 700 -> 400 ms per round; jit-compilations-per-second.txt).
"$JAVA" -Xmx1g -cp "$JAR:$(cat "$CP")" dev.flow.bench.load.LibrarySessions --libraries=jedis,smtp \
    --modes=virtual,continuation-strict --sessions=2000 --rounds=20 --warmup-rounds=15 > sessions-2000-warm15-jdk25.txt
python3 ../../v22-connector-adaptive/paired.py sessions-2000-warm15-jdk25.txt > sessions-2000-warm15-paired.txt
