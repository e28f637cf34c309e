#!/usr/bin/env bash
# After run30.sh: the loads whose rounds spread most, again with more rounds. J, CP as in run30.sh; JDK 25.
set -u
cd "$(dirname "$0")/../../.."
J=${J:-/tmp/lead/s39/main.jar}
CP=${CP:-$(cat /tmp/lead/s38/cp.txt)}
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
R=bench/results/v30-table
# 1. HTTP with 1,000 connections, 5 rounds (the first run's rounds spread 106-133k)
ROUNDS=5 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain HANDLERS_lenient=plain-lenient bench/protocol-rounds.sh $R/http1000 \
  "lenient=$J:continuation-immediately strict=$J:continuation-immediately vt=$J:virtual" "http:1000:1" > $R/http1000-rounds.out 2>&1
STEADY=8 python3 bench/protocol-medians.py $R/http1000 vt > $R/http1000-medians-vs-vt.md 2>&1
# 2. the client libraries, 30 rounds after 15 warm-ups
$J25 -Xmx1g -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=jedis,http,smtp --sessions=500 \
  --modes=virtual,continuation,continuation-strict --rounds=30 --warmup-rounds=15 > $R/libraries/libraries-500-30r-jdk25.txt 2>&1
python3 bench/results/v22-connector-adaptive/paired.py $R/libraries/libraries-500-30r-jdk25.txt > $R/libraries/libraries-500-30r-jdk25-paired.txt 2>&1
# 3. pgjdbc's queries, 500 sessions over connections opened beforehand, 40 rounds after 10 warm-ups
$J25 -Xmx1g -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-queries --sessions=500 \
  --modes=virtual,continuation,continuation-strict --rounds=40 --warmup-rounds=10 > $R/libraries/pgjdbc-queries-500-40r-jdk25.txt 2>&1
python3 bench/results/v22-connector-adaptive/paired.py $R/libraries/pgjdbc-queries-500-40r-jdk25.txt > $R/libraries/pgjdbc-queries-500-40r-jdk25-paired.txt 2>&1
