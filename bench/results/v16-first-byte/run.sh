#!/bin/bash
# interleaved off/on: the first-byte wait of the HTTP sample (FlowServer.Builder.clientSpeaksFirst) off
# (FLOW_FIRST_BYTE=0, --client-speaks-first false) and on (FLOW_FIRST_BYTE=1), one jar, paced reset flood
# 3500/s, JDK 25, both baselines in each round, the parameters of ../v12-turn-budget/run.sh.
# JAR (default /tmp/fbjars/firstbyte.jar) is the bench uber jar; results go to BENCH (default /tmp/fbbench)/$1
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=${JAR:-/tmp/fbjars/firstbyte.jar}
OUT=${BENCH:-/tmp/fbbench}/$1
mkdir -p $OUT
run() { # first-byte(0|1) label modes round
  echo "== round $4 $2 $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
  FLOW_FIRST_BYTE=$1 timeout 600 $J25 -cp $JAR dev.flow.bench.hostile.HostileLatency --rounds 1 --requests 5000 --warmup 2000 \
    --modes $3 --attacks none,external-reset-flood --resets 100000 --flood-rate 3500 > $OUT/r$4-$2.txt 2>&1
  grep '^| ' $OUT/r$4-$2.txt | grep -v 'p50\|---' >> $OUT/log.txt
}
FLOW=sync,continuation,continuation-io-threads
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then run 0 off $FLOW $r; run 1 on $FLOW $r; else run 1 on $FLOW $r; run 0 off $FLOW $r; fi
  run 0 baselines baseline-blocking,baseline-virtual $r
done
echo "== done $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
