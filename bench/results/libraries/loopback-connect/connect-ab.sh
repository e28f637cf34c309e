#!/bin/bash
# Interleaved A/B of ConnectCost.java (JDK 25), base and head jars as in ab.sh. Usage: connect-ab.sh PAIRS > out.txt
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
HERE=$(cd "$(dirname "$0")" && pwd)
for pair in $(seq 1 "${1:-3}"); do for v in base head; do
  echo "=== pair $pair variant $v start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  $J -Xmx256m -cp /tmp/connect-ab/$v/benchmarks.jar "$HERE/ConnectCost.java" 3000 5 2>&1
done; done
