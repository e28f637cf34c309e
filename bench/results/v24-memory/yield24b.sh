#!/bin/bash
# AwaitResumeBenchmark.flowYield only, new first then base, 10 iterations, pairs 4-6, JDK 25.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
out=$(dirname "$0")
for pair in 4 5 6; do
  for side in new base; do
    $J25 -jar /tmp/lead/s33/$side.jar -f 1 -wi 3 -w 1s -i 10 -r 1s -p depth=3 -p workers=1 'AwaitResumeBenchmark.flowYield' > $out/yield-$side-$pair.txt 2>&1
  done
done
