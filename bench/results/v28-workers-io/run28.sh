#!/usr/bin/env bash
# Lenient handlers on the default dispatch, and the I/O thread count of WORKERS (#19). Plain handlers, JDK 25,
# nothing else running. J: the bench jar of main (27faf9f) plus --handlers=plain-lenient, before the change of
# IoProcessors.defaultCount; N: the same with it (one I/O thread per processor for WORKERS).
set -u
cd "$(dirname "$0")/../../.."
J=${J:-/tmp/lead/s37/len.jar}
N=${N:-/tmp/lead/s37/new.jar}
R=bench/results/v28-workers-io
# 1. strict and lenient plain handlers on the default dispatch, WORKERS, virtual threads
ROUNDS=3 WARMUP=5 STEADY=10 RAMPDOWN=1 HANDLERS=plain HANDLERS_len=plain-lenient bench/protocol-rounds.sh $R/lenient \
  "strict=$J:continuation-immediately len=$J:continuation-immediately wrk=$J:continuation-workers vt=$J:virtual" \
  "http:100:1 resp-ping:50:1" > $R/lenient-rounds.out 2>&1
STEADY=10 python3 bench/protocol-medians.py $R/lenient vt > $R/lenient-medians-vs-vt.md 2>&1
# 2. WORKERS with 2 I/O threads (wrk2) against MINA's default of 3 (wrk), beside the lenient default dispatch
ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain HANDLERS_len=plain-lenient JVM_ARGS_wrk2=-Dflow.bench.ioProcessors=2 \
  bench/protocol-rounds.sh $R/wrk2 "len=$J:continuation-immediately wrk2=$J:continuation-workers wrk=$J:continuation-workers" \
  "http:100:1 resp-ping:50:1" > $R/wrk2-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/wrk2 wrk > $R/wrk2-medians-vs-wrk.md 2>&1
# 3. the same for WORKERS and a thread-per-session server on the four unpipelined loads
ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain JVM_ARGS_wrk2=-Dflow.bench.ioProcessors=2 JVM_ARGS_sync2=-Dflow.bench.ioProcessors=2 \
  bench/protocol-rounds.sh $R/io "wrk=$J:continuation-workers wrk2=$J:continuation-workers sync=$J:sync sync2=$J:sync" \
  "http:100:1 resp-ping:50:1 http:1000:1 resp-ping:1000:1" > $R/io-rounds.out 2>&1
for b in wrk sync; do STEADY=8 python3 bench/protocol-medians.py $R/io $b > $R/io-medians-vs-$b.md 2>&1; done
# 4. after the change: WORKERS before and after, virtual threads beside
ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain bench/protocol-rounds.sh $R/confirm \
  "before=$J:continuation-workers after=$N:continuation-workers vt=$N:virtual" \
  "http:100:1 resp-ping:50:1 http:1000:1 resp-ping:1000:1" > $R/confirm-rounds.out 2>&1
for b in before vt; do STEADY=8 python3 bench/protocol-medians.py $R/confirm $b > $R/confirm-medians-vs-$b.md 2>&1; done
