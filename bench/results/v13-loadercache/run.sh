#!/bin/sh
# interleaved: per round, for each set: off, cold, warm (order rotated per round)
cd /work/wt/loadercache
J=${J:-/work/lc-bench/after.jar}
OUT=/work/lc-bench/out; mkdir -p $OUT
ROUNDS=${ROUNDS:-5}
for set in ${SETS:-jedis net}; do
  rm -rf /work/lc-bench/warm-$set; JAR=$J CACHE=/work/lc-bench/warm-$set bench/loader-build.sh $set > $OUT/prefill-$set.txt 2>&1
done
for r in $(seq 1 $ROUNDS); do
  case $((r % 3)) in 1) order="off cold warm";; 2) order="cold warm off";; 0) order="warm off cold";; esac
  for set in ${SETS:-jedis net}; do
    for m in $order; do
      echo "round $r $set $m $(cat /proc/loadavg)" >> $OUT/load.log
      case $m in
        off) JAR=$J bench/loader-build.sh $set > $OUT/$set-$m-$r.txt 2>&1 ;;
        cold) rm -rf /work/lc-bench/cold; JAR=$J CACHE=/work/lc-bench/cold bench/loader-build.sh $set > $OUT/$set-$m-$r.txt 2>&1 ;;
        warm) JAR=$J CACHE=/work/lc-bench/warm-$set bench/loader-build.sh $set > $OUT/$set-$m-$r.txt 2>&1 ;;
      esac
    done
  done
done
echo finished >> $OUT/load.log
