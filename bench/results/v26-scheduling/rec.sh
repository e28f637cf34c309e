#!/bin/bash
# (bench/results/v26-scheduling; run from the directory holding the jar, e.g. bench/target with benchmarks.jar)
# system-wide sched_switch/wakeup record for 2 s of the steady state of a LoadServer (MODE) under RESP c50
MODE=$1; JAR=$2; OUT=$3; shift 3
. "$(dirname "$0")/server.sh"
( sleep 8; perf record -q -a -e sched:sched_switch,sched:sched_wakeup,sched:sched_migrate_task -o $OUT.data -- sleep 2 >/dev/null 2>&1 ) &
$J25 -cp $JAR dev.flow.bench.load.LoadClient --port=$port --server-pid=$spid --protocol=resp-ping --connections=50 \
  --pipeline=1 --warmup-s=6 --steady-s=8 --rampdown-s=1 --handlers=plain --quiet 2>&1 | grep -a 'RESULT\|server:'
wait %2 2>/dev/null
kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f $LOG
perf script -i $OUT.data > $OUT.txt 2>/dev/null; rm -f $OUT.data
