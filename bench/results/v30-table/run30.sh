#!/usr/bin/env bash
# #19's whole table on main after the lenient hand-off (v29): the plain handlers loaded lenient (the loader's
# default, as a user's untouched code is) and strict on the default dispatch, strict on IO_THREADS, a thread per
# connection, virtual threads over the socket Transport and the hand-written Netty 4.2 server; then the SMTP
# sample (lenient and strict) beside virtual threads; then the client libraries through the default connector.
# J: the bench jar of main (b0fd809), CP its classpath for LibrarySessions; JDK 25; 3 interleaved rounds;
# nothing else running.
set -u
cd "$(dirname "$0")/../../.."
J=${J:-/tmp/lead/s39/main.jar}
CP=${CP:-$(cat /tmp/lead/s38/cp.txt)}
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
R=bench/results/v30-table
( while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > $R/loadavg.txt &
L=$!
export ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1
# 1. every server mode on #19's HTTP and RESP loads
HANDLERS=plain HANDLERS_lenient=plain-lenient bench/protocol-rounds.sh $R/plain \
  "lenient=$J:continuation-immediately strict=$J:continuation-immediately io=$J:continuation-io sync=$J:sync vt=$J:virtual netty=$J:netty" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 resp-ping:1000:1" > $R/plain-rounds.out 2>&1
for b in vt netty; do STEADY=8 python3 bench/protocol-medians.py $R/plain $b > $R/plain-medians-vs-$b.md 2>&1; done
# 2. the SMTP sample, 1,000 sessions
HANDLERS=samples-strict HANDLERS_lenient=samples bench/protocol-rounds.sh $R/smtp \
  "lenient=$J:continuation-immediately strict=$J:continuation-immediately sync=$J:sync vt=$J:virtual" "smtp:1000:1" > $R/smtp-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/smtp vt > $R/smtp-medians-vs-vt.md 2>&1
# 3. client libraries through the default connector, 500 sessions, lenient and strict beside virtual threads
mkdir -p $R/libraries
$J25 -Xmx1g -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=jedis,http,smtp --sessions=500 \
  --modes=virtual,continuation,continuation-strict --rounds=12 --warmup-rounds=6 > $R/libraries/libraries-500-jdk25.txt 2>&1
python3 bench/results/v22-connector-adaptive/paired.py $R/libraries/libraries-500-jdk25.txt > $R/libraries/libraries-500-jdk25-paired.txt 2>&1
kill $L
