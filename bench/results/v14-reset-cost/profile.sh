#!/bin/bash
# profile MODE JAR OUT: HTTP sample under a paced reset flood, async-profiler cpu, collapsed stacks per thread
MODE=$1; JAR=$2; OUT=$3; EV=${EV:-cpu}
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
case $MODE in
  continuation) args="dev.flow.samples.http.HttpServer --port 0 --mode continuation --workers 2";;
  continuation-io-threads) args="dev.flow.samples.http.HttpServer --port 0 --mode continuation --workers 2 --dispatch io-threads";;
  baseline-virtual) args="dev.flow.bench.load.LoadServer --mode=virtual --protocol=http";;
esac
LOG=$(mktemp)
$J25 -Xmx64m -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -cp $JAR $args > $LOG 2>&1 < <(sleep 3600) &
pid=$!
for _ in $(seq 1 600); do grep -q 'listening on\|LISTENING' $LOG && break; sleep 0.2; done
port=$(grep -o 'listening on 127.0.0.1:[0-9]*\|LISTENING [0-9]*' $LOG | head -1 | grep -o '[0-9]*$')
$J25 -cp $JAR dev.flow.bench.hostile.ResetFlood $port 20000 2 600 3500 > /dev/null
sleep 1
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid JVMTI.agent_load /tmp/h3-ap/linux-x64/libasyncProfiler.so '"start,event='$EV',interval=1ms,threads"' > /dev/null
echo "flood: $($J25 -cp $JAR dev.flow.bench.hostile.ResetFlood $port 20000 2 600 3500 | tail -1) load $(cut -d' ' -f1 /proc/loadavg)"
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid JVMTI.agent_load /tmp/h3-ap/linux-x64/libasyncProfiler.so '"stop,file='$OUT',collapsed"' > /dev/null
kill $pid; wait $pid 2>/dev/null; rm -f $LOG
