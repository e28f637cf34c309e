#!/usr/bin/env bash
# Before/after the default of one I/O thread per processor for Dispatch.ADAPTIVE and IO_THREADS: base = f63ea24
# (MINA's default, processors + 1 = 3 here), new = the change; virtual threads and Netty in the same rounds.
# Plain handlers on the five loads, then the SMTP sample (strict). JDK 25, 3 interleaved rounds, nothing else
# running.
set -u
cd /work/main
B=${B:-/tmp/lead/s32/base.jar}
N=${N:-/tmp/lead/s32/new.jar}
R=bench/results/v23-table/confirm
mkdir -p $R
( while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > $R/loadavg.txt &
L=$!
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain bench/protocol-rounds.sh $R/plain \
  "base=$B:continuation-immediately new=$N:continuation-immediately vt=$N:virtual netty=$N:netty" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 resp-ping:1000:1" > $R/plain-rounds.out 2>&1
HANDLERS=samples-strict bench/protocol-rounds.sh $R/smtp \
  "base=$B:continuation-immediately new=$N:continuation-immediately" "smtp:1000:1" > $R/smtp-rounds.out 2>&1
kill $L
for b in base vt netty; do STEADY=8 python3 bench/protocol-medians.py $R/plain $b > $R/plain-medians-vs-$b.md 2>&1; done
STEADY=8 python3 bench/protocol-medians.py $R/smtp base > $R/smtp-medians-vs-base.md 2>&1
