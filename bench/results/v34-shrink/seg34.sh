#!/usr/bin/env bash
# TCP segments on loopback per run (kernel counters, /proc/net/snmp): pgjdbc-selects, 500 sessions, 4 rounds after
# 2 warm-ups, one mode per client JVM, JDK 25, HotSpot's defaults. Every segment is counted once out and once in.
# Usage: seg34.sh JAR OUT
set -u
cd "$(dirname "$0")/../../.."
R=$2
mkdir -p $R
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
segs() { awk '/^Tcp:/ && $2 ~ /^[0-9]/ {print $11, $12}' /proc/net/snmp; }
for i in 1 2; do for mode in virtual continuation; do
  before=$(segs)
  $J25 -Xmx1g -cp $1:$CP dev.flow.bench.load.LibrarySessions --libraries=${LIB:-pgjdbc-selects} --sessions=500 \
    --modes=$mode --rounds=4 --warmup-rounds=2 > $R/seg-$mode$i.txt 2>&1
  after=$(segs)
  echo "$mode $i in/out segments before: $before after: $after" >> $R/seg-$mode$i.txt
  echo "$mode $i: $(echo $before $after | awk '{print "in", $3-$1, "out", $4-$2}')"
done; done
