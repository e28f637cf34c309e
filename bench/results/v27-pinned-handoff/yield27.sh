#!/usr/bin/env bash
# AwaitResumeBenchmark.flowYield (depth 3, 1 worker): base.jar (f4428fc's bench jar) against new3.jar (this
# change's, 2fd0bb0), JDK 25, pairs 1-4 base first, 5-8 new first; nothing else running.
set -eu
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
y() { $J25 -jar $1.jar -f 1 -wi 3 -w 1s -i 5 -r 1s -p depth=3 -p workers=1 'AwaitResumeBenchmark.flowYield' > yield/yield-$1-$2.txt 2>&1; }
for pair in 1 2 3 4; do y base $pair; y new3 $pair; done
for pair in 5 6 7 8; do y new3 $pair; y base $pair; done
