#!/bin/bash
# per-thread context switches of a LoadServer (MODE) under RESP c50 for 8 s of the steady state
MODE=$1; JAR=$2; OUT=$3
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
LOG=$(mktemp)
$J25 -Xms1g -Xmx1g -XX:+UseG1GC -cp $JAR dev.flow.bench.load.LoadServer --mode=$MODE --protocol=redis --handlers=plain > $LOG 2>&1 < <(sleep 60) &
pid=$!
for _ in $(seq 1 300); do grep -q 'LISTENING' $LOG && break; sleep 0.2; done
port=$(grep -o 'LISTENING [0-9]*' $LOG | head -1 | grep -o '[0-9]*$')
spid=$(grep -o 'pid=[0-9]*' $LOG | head -1 | cut -d= -f2)
( sleep 7; perf stat --per-thread -e context-switches,task-clock -p $spid -- sleep 8 2> $OUT ) &
$J25 -cp $JAR dev.flow.bench.load.LoadClient --port=$port --server-pid=$spid --protocol=resp-ping --connections=50 \
  --pipeline=1 --warmup-s=6 --steady-s=10 --rampdown-s=1 --handlers=plain --quiet 2>&1 | grep -a 'RESULT\|server:'
wait %2 2>/dev/null
kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f $LOG
