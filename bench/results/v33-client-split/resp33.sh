#!/usr/bin/env bash
# The transport's lookup on every read, before and after SessionData (and OwnedSync's lazy queue): RESP c1000 and
# HTTP c100, the plain handlers loaded lenient on the default dispatch, Netty beside, 5 interleaved rounds with the
# servers' order rotated, JDK 25, nothing else running. Usage: resp33.sh BEFORE_JAR AFTER_JAR [OUT]
set -u
cd "$(dirname "$0")/../../.."
R=${3:-bench/results/v33-client-split/resp}
export ROUNDS=5 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain-lenient bench/protocol-rounds.sh $R \
  "before=$1:continuation-immediately after=$2:continuation-immediately netty=$2:netty" \
  "resp-ping:1000:1 http:100:1" > $R-rounds.out 2>&1
for b in before netty; do STEADY=8 python3 bench/protocol-medians.py $R $b > $R-medians-vs-$b.md 2>&1; done
