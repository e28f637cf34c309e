#!/bin/sh
# interleaved before/after: rounds x (set x mode) x (base, after) with order alternating per round
B=$1; A=$2; OUT=$3; ROUNDS=${4:-3}
mkdir -p $OUT
for r in $(seq 1 $ROUNDS); do
  for set in jedis net; do
    for mode in off cold; do
      if [ $((r % 2)) = 1 ]; then order="base after"; else order="after base"; fi
      for v in $order; do
        jar=$B; [ $v = after ] && jar=$A
        echo "$r $set $mode $v $(cat /proc/loadavg)" >> $OUT/load.log
        if [ $mode = cold ]; then rm -rf /work/lc/coldcache; mkdir -p /work/lc/coldcache; c=/work/lc/coldcache; else c=; fi
        JAR=$jar CACHE=$c /work/wt/loadercold/bench/loader-build.sh $set -Xmx512m 2>/dev/null | grep -v "^loaded" > $OUT/$set-$mode-$v-$r.txt
      done
    done
  done
done
echo done >> $OUT/load.log
