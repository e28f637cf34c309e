#!/usr/bin/env bash
# Quiet window of this stop: #19's table on the plain handlers (before/after write coalescing), SMTP-1000 on the
# samples, and the echo ceiling (hand-written MINA against Netty). One jar per side, JDK 25, 3 rounds each.
set -u
cd /work/main
B=/tmp/lead/base20.jar
H=/tmp/lead/head20.jar
R=bench/results/v20-plain-quiet
( while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > $R/loadavg.txt &
L=$!
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain bench/protocol-rounds.sh $R/plain \
  "base=$B:continuation-immediately cont=$H:continuation-immediately io=$H:continuation-io sync=$H:sync vt=$H:virtual netty=$H:netty" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 resp-ping:1000:1" > $R/plain-rounds.out 2>&1
bench/protocol-rounds.sh $R/smtp \
  "base=$B:continuation-immediately cont=$H:continuation-immediately io=$H:continuation-io sync=$H:sync vt=$H:virtual" \
  "smtp:1000:1" > $R/smtp-rounds.out 2>&1
bench/protocol-rounds.sh $R/echo \
  "mina=$H:mina netty=$H:netty cont=$H:continuation-immediately io=$H:continuation-io vt=$H:virtual" \
  "echo:50:1 echo:1000:1" > $R/echo-rounds.out 2>&1
kill $L
echo done > $R/DONE
