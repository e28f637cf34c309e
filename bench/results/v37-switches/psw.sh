#!/usr/bin/env bash
# #16, v37: every context switch on the machine inside the timed rounds (sched:sched_switch with kernel stacks,
# system-wide: PostgreSQL's backends too). The bench jar must carry mark.patch.
# usage: CP=<classpath> psw.sh MODE OUT [jvm args]; then swwin.py OUT.txt OUT.script and
# preempt.py OUT.txt OUT.script <thread name prefix>
MODE=$1; OUT=$2; shift 2
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
$J25 -Xmx1g "$@" -cp "${CP:?}" dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-selects --sessions=500 \
  --modes="$MODE" --rounds=6 --warmup-rounds=6 > "$OUT.txt" 2>&1 &
JP=$!
until grep -q "MARK start" "$OUT.txt" 2>/dev/null; do sleep 0.2; done
perf record -q -k CLOCK_MONOTONIC -e sched:sched_switch -g -a -o "$OUT.data" 2>/dev/null &
PP=$!
wait $JP
kill -INT $PP; wait $PP
perf script -i "$OUT.data" -F comm,tid,time,event,trace,ip,sym > "$OUT.script" 2>/dev/null
