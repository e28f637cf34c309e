#!/bin/bash
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
out=/tmp/lead/hp-out; mkdir -p $out
for pair in 1 2 3; do for side in base head; do
  echo "== pair $pair $side $(uptime)" >> $out/log
  $J25 -jar /tmp/lead/hp-$side/bench/target/benchmarks.jar -f 1 -wi 3 -w 1s -i 5 -r 1s -p depth=1 -p workers=1 'AwaitResumeBenchmark.flowYield' > $out/yield-$side-$pair.txt 2>&1
  $J25 -jar /tmp/lead/hp-$side/bench/target/benchmarks.jar -f 1 -wi 3 -w 1s -i 5 -r 1s 'InstrumentedFrameBenchmark' > $out/frame-$side-$pair.txt 2>&1
done; done
echo done >> $out/log
