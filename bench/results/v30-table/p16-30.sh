#!/usr/bin/env bash
# RESP -P16 with a virtual-thread server that batches its replies: the plain handlers flush once per reply, and
# the socket Transport sends each flush, so run30.sh's vt row at P16 writes 16 times per batch while Flow's MINA
# transport consolidates. The RESP sample (flushIfNoInput: it writes once no further request is buffered) is the
# best blocking code a user would write for pipelining: vts runs it on virtual threads, samples on Flow (lenient).
set -u
cd "$(dirname "$0")/../../.."
J=${J:-/tmp/lead/s39/main.jar}
R=bench/results/v30-table
ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain HANDLERS_lenient=plain-lenient HANDLERS_samples=samples HANDLERS_vts=samples \
  bench/protocol-rounds.sh $R/p16 \
  "lenient=$J:continuation-immediately samples=$J:continuation-immediately vt=$J:virtual vts=$J:virtual netty=$J:netty" \
  "resp-ping:50:16" > $R/p16-rounds.out 2>&1
for b in vts vt netty; do STEADY=8 python3 bench/protocol-medians.py $R/p16 $b > $R/p16-medians-vs-$b.md 2>&1; done
# then: RESP -P16 against Netty alone, 5 rounds (the two runs above gave 0.83x Netty at 1.23x and 1.27x its CPU)
ROUNDS=5 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain-lenient bench/protocol-rounds.sh $R/p16-netty \
  "lenient=$J:continuation-immediately netty=$J:netty" "resp-ping:50:16" > $R/p16-netty-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/p16-netty netty > $R/p16-netty-medians-vs-netty.md 2>&1
