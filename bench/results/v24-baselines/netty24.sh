#!/usr/bin/env bash
# Netty's RESP c50 is bimodal across runs (v21: 243k / 183k / 241k; v23: 175-185k): 8 interleaved rounds of Netty
# and the default dispatch on RESP PING c50, with perf stat's syscalls and context switches per request (PERF=1).
# J: the bench jar of 78f83b4, copied aside; JDK 25.
set -u
cd /work/main
J=${J:-/tmp/lead/s33/new.jar}
R=${R:-bench/results/v24-baselines}
export ROUNDS=8 WARMUP=5 STEADY=8 RAMPDOWN=1 PERF=1
HANDLERS=plain bench/protocol-rounds.sh $R/netty \
  "adapt=$J:continuation-immediately netty=$J:netty" "resp-ping:50:1" > $R/netty-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/netty netty > $R/netty-medians.md 2>&1
