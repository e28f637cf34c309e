#!/usr/bin/env bash
# Lenient sessions on the I/O thread with the default dispatch (#19): an I/O thread whose flow blocks in a
# pinned wait hands its loop to another thread, so ADAPTIVE no longer keeps lenient flows on workers. JDK 25,
# nothing else running. B: the bench jar of main before the change (483700d); N: with it.
set -u
cd "$(dirname "$0")/../../.."
B=${B:-/tmp/lead/s38/base.jar}
N=${N:-/tmp/lead/s38/new.jar}
R=bench/results/v29-lenient-io
# 1. plain handlers loaded lenient, before and after; loaded strict and virtual threads beside
ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain-lenient HANDLERS_strict=plain bench/protocol-rounds.sh $R/servers \
  "before=$B:continuation-immediately after=$N:continuation-immediately strict=$N:continuation-immediately vt=$N:virtual" \
  "http:100:1 resp-ping:50:1 resp-ping:50:16 http:1000:1" > $R/servers-rounds.out 2>&1
for b in before vt; do STEADY=8 python3 bench/protocol-medians.py $R/servers $b > $R/servers-medians-vs-$b.md 2>&1; done
# 2. client libraries through the default connector, lenient and strict, beside virtual threads, before then after, twice
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
CP=$(cat /tmp/lead/s38/cp.txt)
mkdir -p $R/libraries
for pass in 1 2; do
  for jar in before after; do
    J=$B; [ $jar = after ] && J=$N
    $J25 -Xmx1g -cp $J:$CP dev.flow.bench.load.LibrarySessions --libraries=jedis,http,smtp --sessions=500 \
      --modes=virtual,continuation,continuation-strict --rounds=12 --warmup-rounds=6 > $R/libraries/$jar-$pass-jdk25.txt 2>&1
    python3 bench/results/v22-connector-adaptive/paired.py $R/libraries/$jar-$pass-jdk25.txt > $R/libraries/$jar-$pass-jdk25-paired.txt 2>&1
  done
done
# 3. a second run of the two main loads, before, after and virtual threads (virtual threads' rounds spread widely in 1)
ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain-lenient bench/protocol-rounds.sh $R/confirm \
  "before=$B:continuation-immediately after=$N:continuation-immediately vt=$N:virtual" \
  "http:100:1 resp-ping:50:1" > $R/confirm-rounds.out 2>&1
for b in before vt; do STEADY=8 python3 bench/protocol-medians.py $R/confirm $b > $R/confirm-medians-vs-$b.md 2>&1; done
# 4. the final jar (F: the selected-keys fix the lenient soak called for), the two main loads again, before and virtual threads beside
F=${F:-/tmp/lead/s38/new2.jar}
ROUNDS=3 WARMUP=5 STEADY=8 RAMPDOWN=1 HANDLERS=plain-lenient HANDLERS_strict=plain bench/protocol-rounds.sh $R/final \
  "before=$B:continuation-immediately after=$F:continuation-immediately strict=$F:continuation-immediately vt=$F:virtual" \
  "http:100:1 resp-ping:50:1" > $R/final-rounds.out 2>&1
for b in before strict vt; do STEADY=8 python3 bench/protocol-medians.py $R/final $b > $R/final-medians-vs-$b.md 2>&1; done
# 5. 60 s soaks with --lenient on the final jar (JDK 17, then 25)
CP=$(cat /tmp/lead/s38/cp.txt)
java -Xmx512m -cp $F:$CP dev.flow.bench.soak.Soak --seconds 60 --lenient > $R/soak/soak-60s-lenient-jdk17.log 2>&1
$J25 -Xmx512m -cp $F:$CP dev.flow.bench.soak.Soak --seconds 60 --lenient > $R/soak/soak-60s-lenient-jdk25.log 2>&1
