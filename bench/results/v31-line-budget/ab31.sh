#!/usr/bin/env bash
# One lock and one shared budget update fewer per line read: main (b0fd809, base) against the change (new), with
# Netty beside; plain handlers loaded lenient, default dispatch. JDK 25, 4 interleaved rounds, nothing else running.
set -u
cd "$(dirname "$0")/../../.."
B=${B:-/tmp/lead/s39/main.jar}
N=${N:-/tmp/lead/s39/new.jar}
R=bench/results/v31-line-budget
ROUNDS=4 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain-lenient bench/protocol-rounds.sh $R/ab \
  "base=$B:continuation-immediately new=$N:continuation-immediately netty=$N:netty" \
  "resp-ping:50:16 resp-ping:50:1 http:100:1" > $R/ab-rounds.out 2>&1
for b in base netty; do STEADY=8 python3 bench/protocol-medians.py $R/ab $b > $R/ab-medians-vs-$b.md 2>&1; done
