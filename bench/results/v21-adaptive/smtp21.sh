#!/usr/bin/env bash
# The SMTP sample (lenient, so ADAPTIVE keeps its flows on workers) before/after, 1,000 sessions, JDK 25, 3 rounds.
set -u
cd /work/main
B=/tmp/lead/base21.jar
H=/tmp/lead/adapt22.jar
R=bench/results/v21-adaptive
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
bench/protocol-rounds.sh $R/smtp "base=$B:continuation-immediately adapt=$H:continuation-immediately vt=$H:virtual" \
  "smtp:1000:1" > $R/smtp-rounds.out 2>&1
