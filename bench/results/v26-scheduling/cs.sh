#!/bin/bash
# (bench/results/v26-scheduling; run from the directory holding the jar, e.g. bench/target with benchmarks.jar)
# per-thread scheduling of a LoadServer (MODE) under RESP c50 for 8 s of the steady state
MODE=$1; JAR=$2; OUT=$3; shift 3
. "$(dirname "$0")/server.sh"
snap() { for t in /proc/$spid/task/*; do echo "$(basename $t) $(cat $t/comm | tr ' ' _) $(grep -h 'voluntary_ctxt' $t/status | awk '{print $2}' | tr '\n' ' ') $(awk '{print $14+$15}' $t/stat)"; done; }
( sleep 7; snap > $OUT.before; perf stat --per-thread -e context-switches,task-clock,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_futex,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_sched_yield -p $spid -- sleep 8 2> $OUT; snap > $OUT.after ) &
$J25 -cp $JAR dev.flow.bench.load.LoadClient --port=$port --server-pid=$spid --protocol=resp-ping --connections=50 \
  --pipeline=1 --warmup-s=6 --steady-s=10 --rampdown-s=1 --handlers=plain --quiet 2>&1 | grep -a 'RESULT\|server:'
wait %2 2>/dev/null
kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f $LOG
join <(sort $OUT.before) <(sort $OUT.after) | awk '{dv=$7-$3; dn=$8-$4; dc=$9-$5; if (dv+dn>10) printf "%-22s vol %7d invol %7d cpu_ticks %5d\n", $2, dv, dn, dc}' > $OUT.proc
cat $OUT.proc
