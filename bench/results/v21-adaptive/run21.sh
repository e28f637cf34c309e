#!/usr/bin/env bash
# #19, Dispatch.ADAPTIVE as the server's default: the plain handlers, every mode side by side, JDK 25, 3 rounds.
# base21.jar: bench at main f2ec9bd (default dispatch WORKERS); adapt22.jar: bench with ADAPTIVE, a long run alone
# forgiven (continuation-immediately is the new default, continuation-workers the old one, continuation-io
# IO_THREADS); both mvn -B -o -q -pl bench -am package -DskipTests. first/ was made by this script with
# H=/tmp/lead/adapt21.jar (every long run counted) and R=bench/results/v21-adaptive/first.
set -u
cd /work/main
B=/tmp/lead/base21.jar
H=/tmp/lead/adapt22.jar
R=bench/results/v21-adaptive
( while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > $R/loadavg.txt &
L=$!
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain bench/protocol-rounds.sh $R/plain \
  "base=$B:continuation-immediately adapt=$H:continuation-immediately workers=$H:continuation-workers io=$H:continuation-io vt=$H:virtual netty=$H:netty" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 resp-ping:1000:1" > $R/plain-rounds.out 2>&1
kill $L
echo done > $R/DONE
