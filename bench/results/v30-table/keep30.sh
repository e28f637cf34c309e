#!/usr/bin/env bash
# #19's "keep what already wins", on main (b0fd809) beside the jar before the lenient hand-off (483700d, base):
# bytes per suspended flow, await -> resume against a virtual thread's yield, instrumented frames that do not
# suspend, 1M sleepers. JDK 25, nothing else running, the two jars alternating.
set -u
cd "$(dirname "$0")/../../.."
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
R=bench/results/v30-table/keep
mkdir -p $R
declare -A JAR=([base]=/tmp/lead/s38/base.jar [main]=/tmp/lead/s39/main.jar)
for side in base main; do
  $J25 -Xms2g -Xmx2g -cp ${JAR[$side]} dev.flow.bench.SuspendedFlowMemory > $R/memory-$side.txt 2>&1
done
for pair in 1 2 3; do for side in base main; do
  $J25 -jar ${JAR[$side]} -f 1 -wi 3 -w 1s -i 5 -r 1s -p depth=3 -p workers=1 'AwaitResumeBenchmark.(flowYield|vtYield)' > $R/yield-$side-$pair.txt 2>&1
done; done
for side in base main; do
  $J25 -jar ${JAR[$side]} -f 1 -wi 3 -w 1s -i 5 -r 1s 'InstrumentedFrameBenchmark' > $R/frame-$side.txt 2>&1
done
for pair in 1 2 3; do for side in base main; do
  $J25 -Xms4g -Xmx4g -cp ${JAR[$side]} dev.flow.bench.load.Sleepers --mode=continuation --n=1000000 > $R/sleepers-$side-$pair.txt 2>&1
done; done
