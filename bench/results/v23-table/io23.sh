#!/usr/bin/env bash
# How many I/O threads for the default dispatch (Dispatch.ADAPTIVE), where the I/O threads run the flows: 2 (the
# cores) against 3 (MINA's default, processors + 1), beside virtual threads; plain handlers, same jar as run23.sh.
set -u
cd /work/main
J=${J:-/tmp/lead/s32/base.jar}
R=bench/results/v23-table/io-threads
mkdir -p $R
( while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > $R/loadavg.txt &
L=$!
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain
export JVM_ARGS_io2=-Dflow.bench.ioProcessors=2 JVM_ARGS_io3=-Dflow.bench.ioProcessors=3
bench/protocol-rounds.sh $R "io2=$J:continuation-immediately io3=$J:continuation-immediately vt=$J:virtual" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:1000:1" > $R/rounds.out 2>&1
kill $L
python3 bench/protocol-medians.py $R vt > $R/medians-vs-vt.md 2>&1
python3 bench/protocol-medians.py $R io3 > $R/medians-vs-io3.md 2>&1
