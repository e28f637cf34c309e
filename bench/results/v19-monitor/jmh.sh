#!/bin/bash
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for pair in 1 2 3; do for v in base head; do
  echo "=== pair $pair variant $v start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $J -jar /tmp/monitor-$v/benchmarks.jar FlowMonitorBenchmark -wi 3 -w 1 -i 5 -r 1 -f 1 2>&1 | grep -E "^FlowMonitorBenchmark|^Benchmark"
done; done
echo "=== end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
