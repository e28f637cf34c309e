#!/usr/bin/env bash
# #19's main rows again, with protocol-rounds.sh rotating the servers' order each round (039769f): the default
# dispatch, virtual threads and Netty, plain handlers, 3 rounds, JDK 25, nothing else running.
# J: the bench jar of f4428fc (bench/target/benchmarks.jar, copied aside).
set -u
cd "$(dirname "$0")/../../.."
J=${J:-/tmp/lead/s35/rot.jar}
R=bench/results/v26-rotated
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain bench/protocol-rounds.sh $R/plain "adapt=$J:continuation-immediately vt=$J:virtual netty=$J:netty" \
  "http:100:1 resp-ping:50:1 http:1000:1 resp-ping:1000:1" > $R/plain-rounds.out 2>&1
for b in vt netty; do STEADY=8 python3 bench/protocol-medians.py $R/plain $b > $R/plain-medians-vs-$b.md 2>&1; done
