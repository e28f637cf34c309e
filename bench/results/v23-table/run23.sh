#!/usr/bin/env bash
# #19's whole table again on the current default (Dispatch.ADAPTIVE on servers and connectors): the plain
# handlers on every server mode, then the SMTP sample (strict, its launcher's default) beside virtual threads.
# J: the bench jar (bench/target/benchmarks.jar, copied aside): f63ea24 for R=bench/results/v23-table, 0ba85f0 (one
# I/O thread per processor) for R=bench/results/v23-table/final; JDK 25; 3 interleaved rounds; nothing else running.
set -u
cd /work/main
J=${J:-/tmp/lead/s32/base.jar}
R=${R:-bench/results/v23-table}
mkdir -p $R
( while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > $R/loadavg.txt &
L=$!
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain bench/protocol-rounds.sh $R/plain \
  "adapt=$J:continuation-immediately workers=$J:continuation-workers io=$J:continuation-io sync=$J:sync vt=$J:virtual netty=$J:netty" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 resp-ping:1000:1" > $R/plain-rounds.out 2>&1
HANDLERS=samples-strict bench/protocol-rounds.sh $R/smtp \
  "adapt=$J:continuation-immediately sync=$J:sync vt=$J:virtual" "smtp:1000:1" > $R/smtp-rounds.out 2>&1
kill $L
for b in vt netty; do STEADY=8 python3 bench/protocol-medians.py $R/plain $b > $R/plain-medians-vs-$b.md 2>&1; done
STEADY=8 python3 bench/protocol-medians.py $R/smtp vt > $R/smtp-medians-vs-vt.md 2>&1
