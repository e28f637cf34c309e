#!/bin/bash
# interleaved probe rounds: new.jar vs wip.jar with -Dflow.mina.firstByte=true (workers, io-threads), virtual-thread baseline, JDK 25
OUT=$1; D=$(dirname $0)
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="new wip"; else order="wip new"; fi
  for j in $order; do
    if [ $j = wip ]; then JOPTS=-Dflow.mina.firstByte=true $D/probe-opts.sh /tmp/latjars/wip.jar $OUT/r$r-wip workers io-threads
    else JOPTS= $D/probe-opts.sh /tmp/latjars/new.jar $OUT/r$r-new workers io-threads; fi
  done
  $D/probe-opts.sh /tmp/latjars/new.jar $OUT/r$r-virtual virtual
done
