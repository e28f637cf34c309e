#!/bin/bash
# (bench/results/v26-scheduling; run from the directory holding the jar, e.g. bench/target with benchmarks.jar)
# RESP c50 on a LoadServer (MODE) with its I/O threads and the client's pinned: PLACE=none|split|pair
MODE=$1; JAR=$2; PLACE=$3; shift 3
. "$(dirname "$0")/server.sh"
tids() { for t in /proc/$1/task/*; do c=$(cat $t/comm); case "$c" in $2*) basename $t;; esac; done; }
(
  sleep 3
  cpid=$(pgrep -f "LoadClient --port=$port" | head -1)
  s=($(tids $spid "${SRV:-FlowNio}" | sort -n | tail -2)); c=($(tids $cpid load-io))
  case $PLACE in
    split) for t in "${s[@]}"; do taskset -p -c 1 $t >/dev/null; done; for t in "${c[@]}"; do taskset -p -c 0 $t >/dev/null; done;;
    pair) taskset -p -c 0 ${s[0]} >/dev/null; taskset -p -c 1 ${s[1]} >/dev/null; taskset -p -c 0 ${c[0]} >/dev/null; taskset -p -c 1 ${c[1]} >/dev/null;;
    nice*) for t in "${s[@]}"; do renice -n ${PLACE#nice} -p $t >/dev/null; done;;
    cross) taskset -p -c 0 ${s[0]} >/dev/null; taskset -p -c 1 ${s[1]} >/dev/null; taskset -p -c 1 ${c[0]} >/dev/null; taskset -p -c 0 ${c[1]} >/dev/null;;
  esac
  echo "pinned $PLACE: server ${s[*]} client ${c[*]}" >&2
) &
$J25 -cp $JAR dev.flow.bench.load.LoadClient --port=$port --server-pid=$spid --protocol=resp-ping --connections=50 \
  --pipeline=1 --warmup-s=6 --steady-s=10 --rampdown-s=1 --handlers=plain --quiet 2>&1 | grep -a 'RESULT\|server:' | sed "s/^/$MODE $PLACE /"
wait
kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f $LOG
