#!/bin/bash
# prof20.sh MODE JAR OUT [PROTOCOL CONNECTIONS]: LoadServer with the plain handlers, LoadClient against it,
# async-profiler cpu over 8 s of the steady state, collapsed stacks with thread names.
H=${H:-plain}; MODE=$1; JAR=$2; OUT=$3; PROTO=${4:-http}; CONN=${5:-100}
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
AP=/tmp/cpu-ap/linux-x64/libasyncProfiler.so
SP=$( [ "$PROTO" = http ] && echo http || echo redis )
LOG=$(mktemp)
$J25 -Xms1g -Xmx1g -XX:+UseG1GC -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -cp $JAR dev.flow.bench.load.LoadServer \
  --mode=$MODE --protocol=$SP --handlers=$H > $LOG 2>&1 < <(sleep 120) &
pid=$!
for _ in $(seq 1 300); do grep -q 'LISTENING' $LOG && break; sleep 0.2; done
port=$(grep -o 'LISTENING [0-9]*' $LOG | head -1 | grep -o '[0-9]*$')
spid=$(grep -o 'pid=[0-9]*' $LOG | head -1 | cut -d= -f2)
( sleep 7; /usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $spid JVMTI.agent_load $AP '"start,event=cpu,interval=1ms,threads"' ;
  sleep 8; /usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $spid JVMTI.agent_load $AP '"stop,file='$OUT',collapsed"'  ) &
$J25 -cp $JAR dev.flow.bench.load.LoadClient --port=$port --server-pid=$spid --protocol=$PROTO --connections=$CONN \
  --pipeline=${P:-16} --warmup-s=6 --steady-s=10 --rampdown-s=1 --handlers=$H --quiet 2>&1 | tail -5
wait %2 2>/dev/null
kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f $LOG
