#!/bin/bash
# base/head interleaved, 3 pairs, 10 iterations of 1 s each; raw iteration scores to json
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for pair in 1 2 3; do for v in base head; do
  echo "=== pair $pair variant $v start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $J -jar /tmp/monitor-$v/benchmarks.jar FlowMonitorBenchmark -wi 3 -w 1 -i 10 -r 1 -f 1 -rf json -rff /tmp/monitor-ab/jmh-$v-$pair.json 2>&1 | grep -E "^FlowMonitorBenchmark"
done; done
echo "=== end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
