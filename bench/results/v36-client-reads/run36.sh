#!/usr/bin/env bash
# #16: reads from the reader's own thread (DirectReader) for clients. pgjdbc-selects, 500 sessions on 2 workers,
# 10 rounds after 6 warm-ups, JDK 25; each setting in its own client JVM, the settings alternated, two repetitions.
#   BASE_JAR: a bench jar of 1eceb45 (connectors read through MINA unless -Dflow.mina.directReads says otherwise;
#             adaptive = the old rule: after 2 misses in a row, one wait in 8)  -> base-<setting>-<rep>.txt
#   NEW_JAR:  a bench jar of this commit -> new-<setting>-<rep>.txt (adaptive = the new score rule, measured when it was
#             the connectors' default, before always was chosen; always = what connectors now do unset)
# then the other client libraries, 30 rounds after 15 warm-ups, NEW_JAR unset vs false -> libs30-<setting>-<rep>.txt
# Paired ratios: python3 paired.py <file>.
cd "$(dirname "$0")/../../.."
CP=$(cat bench/target/library-classpath.txt)
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=bench/results/v36-client-reads
run() { # jar, setting, output, libraries, rounds, warm-ups
  local p=""; [ "$2" != default ] && p="-Dflow.mina.directReads=$2"
  $J25 -Xmx1g $p -cp "$1:$CP" dev.flow.bench.load.LibrarySessions --libraries=$4 --sessions=500 \
    --modes=virtual,continuation,continuation-strict --rounds=$5 --warmup-rounds=$6 > "$3" 2>&1
}
for rep in 1 2; do
  for s in false always; do run "${BASE_JAR:?}" $s $OUT/base-$s-$rep.txt pgjdbc-selects 10 6; done
done
for rep in 1 2; do run "$BASE_JAR" adaptive $OUT/base-adaptive-$rep.txt pgjdbc-selects 10 6; done
for rep in 1 2; do
  for s in adaptive false always; do run "${NEW_JAR:?}" $s $OUT/new-$s-$rep.txt pgjdbc-selects 10 6; done
done
for rep in 1 2 3; do
  for s in default false; do run "$NEW_JAR" $s $OUT/libs30-$s-$rep.txt jedis,http,smtp 30 15; done
done
