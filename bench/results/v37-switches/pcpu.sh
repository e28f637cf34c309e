#!/usr/bin/env bash
# #16, v37: where the client JVM's CPU goes inside the timed rounds: perf's cpu-clock at 2 kHz over the whole
# process (kernel, JIT-compiled Java through -XX:+DumpPerfMapAtExit, libjvm), one mode per JVM. The bench jar must
# carry mark.patch (it prints each timed round's start and end in System.nanoTime(), CLOCK_MONOTONIC, which
# perf's -k CLOCK_MONOTONIC matches). usage: CP=<classpath> pcpu.sh MODE OUT; then cpuwin.py OUT.txt OUT.script
MODE=$1; OUT=$2
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
$J25 -Xmx1g -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -cp "${CP:?}" dev.flow.bench.load.LibrarySessions \
  --libraries=pgjdbc-selects --sessions=500 --modes="$MODE" --rounds=8 --warmup-rounds=6 > "$OUT.txt" 2>&1 &
JP=$!
until grep -q "MARK start" "$OUT.txt" 2>/dev/null; do sleep 0.2; done
perf record -q -k CLOCK_MONOTONIC -e cpu-clock -F 2000 -p $JP -o "$OUT.data" 2>/dev/null &
PP=$!
wait $JP
kill -INT $PP; wait $PP
perf script -i "$OUT.data" -F comm,tid,time,ip,sym,dso > "$OUT.script" 2>/dev/null
