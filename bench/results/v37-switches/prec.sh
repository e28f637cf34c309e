#!/usr/bin/env bash
# #16, v37: system calls of the client JVM inside the timed rounds (perf tracepoints, every call), per thread.
# The bench jar must carry mark.patch. usage: CP=<classpath> prec.sh MODE OUT; then win.py OUT.txt OUT.script
MODE=$1; OUT=$2
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
$J25 -Xmx1g -cp "${CP:?}" dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-selects --sessions=500 \
  --modes="$MODE" --rounds=6 --warmup-rounds=6 > "$OUT.txt" 2>&1 &
JP=$!
until grep -q "MARK start" "$OUT.txt" 2>/dev/null; do sleep 0.2; done
perf record -q -k CLOCK_MONOTONIC -e syscalls:sys_enter_futex,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_read,syscalls:sys_enter_write -p $JP -o "$OUT.data" 2>/dev/null &
PP=$!
wait $JP
kill -INT $PP; wait $PP
perf script -i "$OUT.data" -F comm,tid,time,event > "$OUT.script" 2>/dev/null
