#!/usr/bin/env bash
# #19's loads on the final jar (12618ae, with the line-read change), the default dispatch with the plain handlers
# loaded lenient, virtual threads and Netty beside; then the SMTP sample (lenient) beside virtual threads.
# JDK 25, 3 interleaved rounds, nothing else running.
set -u
cd "$(dirname "$0")/../../.."
J=${J:-/tmp/lead/s39/final.jar}
R=bench/results/v31-line-budget
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain-lenient bench/protocol-rounds.sh $R/final \
  "lenient=$J:continuation-immediately vt=$J:virtual netty=$J:netty" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 resp-ping:1000:1" > $R/final-rounds.out 2>&1
for b in vt netty; do STEADY=8 python3 bench/protocol-medians.py $R/final $b > $R/final-medians-vs-$b.md 2>&1; done
HANDLERS=samples bench/protocol-rounds.sh $R/final-smtp "lenient=$J:continuation-immediately vt=$J:virtual" "smtp:1000:1" \
  > $R/final-smtp-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/final-smtp vt > $R/final-smtp-medians-vs-vt.md 2>&1
