#!/bin/bash
# [HANDLERS=plain|plain-lenient] prof28.sh MODE JAR OUT [PROTOCOL CONNECTIONS]: LoadServer with the plain handlers
# (strict, or lenient), LoadClient against it, async-profiler cpu over 8 s of the steady state, collapsed stacks
# with thread names (v20-plain-quiet/prof20.sh with HANDLERS). Ran as
#   HANDLERS=plain prof28.sh continuation-immediately len.jar strict.collapsed http 100
#   HANDLERS=plain-lenient prof28.sh continuation-immediately len.jar len.collapsed http 100
# then split.py strict.collapsed len.collapsed > split.txt.
MODE=$1; JAR=$2; OUT=$3; PROTO=${4:-http}; CONN=${5:-100}
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
AP=/tmp/cpu-ap/linux-x64/libasyncProfiler.so
SP=$( [ "$PROTO" = http ] && echo http || echo redis )
LOG=$(mktemp)
$J25 -Xms1g -Xmx1g -XX:+UseG1GC -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -cp $JAR dev.flow.bench.load.LoadServer \
  --mode=$MODE --protocol=$SP --handlers=${HANDLERS:-plain} > $LOG 2>&1 < <(sleep 120) &
pid=$!
for _ in $(seq 1 300); do grep -q 'LISTENING' $LOG && break; sleep 0.2; done
port=$(grep -o 'LISTENING [0-9]*' $LOG | head -1 | grep -o '[0-9]*$')
spid=$(grep -o 'pid=[0-9]*' $LOG | head -1 | cut -d= -f2)
( sleep 7; /usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $spid JVMTI.agent_load $AP '"start,event=cpu,interval=1ms,threads"' ;
  sleep 8; /usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $spid JVMTI.agent_load $AP '"stop,file='$OUT',collapsed"'  ) &
$J25 -cp $JAR dev.flow.bench.load.LoadClient --port=$port --server-pid=$spid --protocol=$PROTO --connections=$CONN \
  --pipeline=1 --warmup-s=6 --steady-s=10 --rampdown-s=1 --handlers=${HANDLERS:-plain} --quiet 2>&1 | grep -a 'RESULT\|server:' 
wait %2 2>/dev/null
kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f $LOG
