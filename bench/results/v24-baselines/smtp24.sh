#!/usr/bin/env bash
# The SMTP sample at 1,000 sessions, the default dispatch beside virtual threads, 6 interleaved rounds (v23 had 3,
# of which virtual threads passed the fairness check in 2). J: the bench jar of 78f83b4, copied aside; JDK 25.
set -u
cd /work/main
J=${J:-/tmp/lead/s33/new.jar}
R=${R:-bench/results/v24-baselines}
export ROUNDS=6 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=samples-strict bench/protocol-rounds.sh $R/smtp \
  "adapt=$J:continuation-immediately vt=$J:virtual" "smtp:1000:1" > $R/smtp-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/smtp vt > $R/smtp-medians-vs-vt.md 2>&1
