#!/bin/sh
# interleaved base/head: rounds x set x mode(off, cold, warm) x version, order alternating per round
B=$1; A=$2; OUT=$3; ROUNDS=${4:-3}
mkdir -p $OUT
for set in jedis net; do for v in base after; do
  jar=$B; [ $v = after ] && jar=$A
  rm -rf /work/lc/warm-$set-$v; mkdir -p /work/lc/warm-$set-$v
  JAR=$jar CACHE=/work/lc/warm-$set-$v /work/wt/loadercold/bench/loader-build.sh $set -Xmx512m > $OUT/fill-$set-$v.txt 2>&1
done; done
for r in $(seq 1 $ROUNDS); do
  for set in jedis net; do
    for mode in off cold warm; do
      if [ $((r % 2)) = 1 ]; then order="base after"; else order="after base"; fi
      for v in $order; do
        jar=$B; [ $v = after ] && jar=$A
        echo "$r $set $mode $v $(cat /proc/loadavg)" >> $OUT/load.log
        c=
        if [ $mode = cold ]; then rm -rf /work/lc/coldcache; mkdir -p /work/lc/coldcache; c=/work/lc/coldcache; fi
        if [ $mode = warm ]; then c=/work/lc/warm-$set-$v; fi
        JAR=$jar CACHE=$c /work/wt/loadercold/bench/loader-build.sh $set -Xmx512m 2>/dev/null | grep -v "^loaded" > $OUT/$set-$mode-$v-$r.txt
      done
    done
  done
done
echo done >> $OUT/load.log
