#!/bin/bash
# usage: prof.sh JARDIR LIB MODE OUT [extra jvm args]
JARDIR=$1; LIB=$2; MODE=$3; OUT=$4; shift 4
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
LOG=$OUT.log
uptime > $LOG
$J/java -Xmx1g -Ddev.flow.loader.cache=off "$@" -cp $JARDIR/benchmarks.jar:$(cat $JARDIR/library-classpath.txt) dev.flow.bench.load.LibrarySessions --libraries=$LIB --modes=$MODE --sessions=500 --rounds=14 --warmup-rounds=8 >> $LOG 2>&1 &
PID=$!
deadline=$((SECONDS+240))
while [ $(grep -c "| warm-up |" $LOG) -lt 8 ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
$J/jcmd $PID JVMTI.agent_load /tmp/cpu-ap/linux-x64/libasyncProfiler.so '"start,event=cpu,interval=1ms"' >> $LOG 2>&1
while [ $(grep -c "^$LIB | 11 |" $LOG) -lt 1 ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
$J/jcmd $PID JVMTI.agent_load /tmp/cpu-ap/linux-x64/libasyncProfiler.so "\"stop,file=$OUT.collapsed,collapsed\"" >> $LOG 2>&1
wait $PID
uptime >> $LOG
