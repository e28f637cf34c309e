#!/bin/bash
# AwaitResumeBenchmark.flowYield, base (a4fc254) and new (FlowState 64 bytes) alternating, JDK 25.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
out=$(dirname "$0")
for pair in 1 2 3; do
  for side in base new; do
    $J25 -jar /tmp/lead/s33/$side.jar -f 1 -wi 3 -w 1s -i 5 -r 1s -p depth=3 -p workers=1 'AwaitResumeBenchmark.(flowYield|vtYield)' > $out/yield-$side-$pair.txt 2>&1
  done
done
