#!/usr/bin/env bash
# #16's library sessions on the jar of 71f8472 (new) and of f81a511 (base), JDK 25, nothing else running.
# JAR, CP: the bench jar and its target/library-classpath.txt, copied aside.
set -eu
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
run() { "$JAVA" -Xmx1g -cp "$JAR:$(cat "$CP")" dev.flow.bench.load.LibrarySessions "$@"; }
# 500 sessions, lenient ("continuation") and strict beside virtual threads, one JVM per file:
JAR=new.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=12 --warmup-rounds=10 > sessions-500-12r-jdk25.txt
JAR=new.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=30 --warmup-rounds=15 > sessions-500-30r-1-jdk25.txt
JAR=new.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=30 --warmup-rounds=15 > sessions-500-30r-2-jdk25.txt
JAR=base.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=30 --warmup-rounds=15 > sessions-500-30r-base-jdk25.txt
JAR=new.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=30 --warmup-rounds=4 > sessions-500-30r-warm4-jdk25.txt
JAR=new.jar run --libraries=jedis,smtp,http --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=60 --warmup-rounds=15 > sessions-500-60r-jdk25.txt
# 2,000 sessions, strict: new then base (s2000-*-0), then base, new, base, new (s2000-*-1, -2)
for k in 0 1 2; do for v in base new; do
  JAR=$v.jar run --libraries=jedis,smtp --modes=virtual,continuation-strict --sessions=2000 --rounds=20 --warmup-rounds=40 > s2000-$v-$k.txt
done; done
for f in sessions-500-*.txt s2000-*.txt; do python3 ../v22-connector-adaptive/paired.py "$f" > "${f%.txt}-paired.txt"; done
# pgjdbc's queries at 500 sessions (PostgreSQL with max_connections 510, from zonky's embedded binaries):
JAR=new.jar run --libraries=pgjdbc-queries --modes=virtual,continuation,continuation-strict --sessions=500 --rounds=10 --warmup-rounds=10 > pgjdbc-queries-500-jdk25.txt
python3 ../v22-connector-adaptive/paired.py pgjdbc-queries-500-jdk25.txt > pgjdbc-queries-500-jdk25-paired.txt
