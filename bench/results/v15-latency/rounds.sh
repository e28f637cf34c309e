#!/bin/bash
# base-probe.jar: the bench jar of main (82f8965) with LatencyProbe and probe.StampEcho compiled against it and added (jar uf); new.jar: this branch
# interleaved probe rounds: base-probe.jar vs new.jar (workers, io-threads) with the virtual-thread baseline, JDK 25
OUT=$1
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="base-probe new"; else order="new base-probe"; fi
  for j in $order; do
    $(dirname $0)/probe.sh /tmp/latjars/$j.jar $OUT/r$r-$j workers io-threads
  done
  $(dirname $0)/probe.sh /tmp/latjars/new.jar $OUT/r$r-virtual virtual
done
