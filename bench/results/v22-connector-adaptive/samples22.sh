#!/usr/bin/env bash
# The samples loaded lenient (their launcher's way) and strict (--handlers=samples-strict), both on the server's
# default Dispatch.ADAPTIVE, beside virtual threads: one jar (the bench jar of this stop's samples-strict
# commit, copied aside), JDK 25, 3 interleaved rounds, nothing else running.
set -u
cd /work/main
J=${J:-/tmp/lead/e2/new2.jar}
R=bench/results/v22-connector-adaptive/samples-strict
( while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > $R/loadavg.txt &
L=$!
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS_strict=samples-strict
bench/protocol-rounds.sh $R \
  "lenient=$J:continuation-immediately strict=$J:continuation-immediately vt=$J:virtual" \
  "smtp:1000:1 http:100:1 resp-ping:50:1" > $R/rounds.out 2>&1
kill $L
python3 bench/protocol-medians.py $R lenient > $R/medians.txt 2>&1
