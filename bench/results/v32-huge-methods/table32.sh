#!/usr/bin/env bash
# #19's loads once more on this stop's jar: the default dispatch with the plain handlers loaded lenient, virtual
# threads over the socket Transport and Netty beside, 4 interleaved rounds (servers' order rotated); then the SMTP
# sample (lenient) beside virtual threads. JDK 25, nothing else running. Usage: table32.sh [BENCH_JAR].
set -u
cd "$(dirname "$0")/../../.."
J=${1:-bench/target/benchmarks.jar}
R=bench/results/v32-huge-methods
export ROUNDS=4 WARMUP=5 STEADY=8 RAMPDOWN=1
HANDLERS=plain-lenient bench/protocol-rounds.sh $R/table \
  "lenient=$J:continuation-immediately vt=$J:virtual netty=$J:netty" \
  "http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 resp-ping:1000:1" > $R/table-rounds.out 2>&1
for b in vt netty; do STEADY=8 python3 bench/protocol-medians.py $R/table $b > $R/table-medians-vs-$b.md 2>&1; done
HANDLERS=samples bench/protocol-rounds.sh $R/table-smtp "lenient=$J:continuation-immediately vt=$J:virtual" "smtp:1000:1" \
  > $R/table-smtp-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/table-smtp vt > $R/table-smtp-medians-vs-vt.md 2>&1
# The client libraries through the socket bridge, 500 sessions on 2 workers, against virtual threads (30 rounds).
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
$J25 -Xmx1g -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=jedis,http,smtp --sessions=500 \
  --modes=virtual,continuation,continuation-strict --rounds=30 --warmup-rounds=10 > $R/libraries-500-30r-jdk25.txt 2>&1
python3 bench/results/v22-connector-adaptive/paired.py $R/libraries-500-30r-jdk25.txt > $R/libraries-500-30r-jdk25-paired.txt 2>&1
