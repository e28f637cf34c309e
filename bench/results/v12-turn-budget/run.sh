#!/bin/bash
# interleaved A/B: base (main bdf967b) vs new (hostile2; NEW=integ for the merged round's jar), paced reset flood 3500/s, JDK 25
# JARS (default /tmp/h2jars) holds base.jar and the new jar; results go to BENCH (default /tmp/h2bench)/$1
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=${BENCH:-/tmp/h2bench}/$1
mkdir -p $OUT
run() { # jar label modes round
  echo "== round $4 $2 $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
  timeout 600 $J25 -cp ${JARS:-/tmp/h2jars}/$1.jar dev.flow.bench.hostile.HostileLatency --rounds 1 --requests 5000 --warmup 2000 \
    --modes $3 --attacks none,external-reset-flood --resets 100000 --flood-rate 3500 > $OUT/r$4-$2.txt 2>&1
  grep '^| ' $OUT/r$4-$2.txt | grep -v 'p50\|---' | tail -n +1 >> $OUT/log.txt
}
FLOW=sync,continuation,continuation-io-threads
NEW=${NEW:-new}
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then run base base $FLOW $r; run $NEW new $FLOW $r; else run $NEW new $FLOW $r; run base base $FLOW $r; fi
  run base baselines baseline-blocking,baseline-virtual $r
done
echo "== done $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
