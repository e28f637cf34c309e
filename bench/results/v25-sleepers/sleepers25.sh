#!/bin/bash
# 1M sleepers, JDK 25: base (f81a511) against the spare stack arrays (new) and the spare arrays plus
# striped sleep inboxes and no run timing without adaptive carriers (new2). Jars built with
# `mvn -B -pl bench -am package -DskipTests` at each commit and copied aside.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
S="-Xms4g -Xmx4g -cp JAR dev.flow.bench.load.Sleepers --mode=continuation --n=1000000"
# sleepers-ab.txt: 6 pairs base/new, -Xlog:gc:file=gc-SIDE-I.log; sleepers-ab3.txt: 5 triples base/new/new2.
for i in 1 2 3 4 5; do for v in base new new2; do
  $J25 -Xlog:gc:file=gc3-$v-$i.log ${S/JAR/$v.jar}
done; done
# fb-*.out, fb2-*.out: whole-process pairs (A B A B ..., 10 pairs new2/base, then 8 pairs new2/new), each
# process's own SLEEPERS line appended to the .out file; fb2.txt has the second call's whole-process figures.
# AwaitResumeBenchmark.flowYield, 4 pairs alternating base/new2, with the GC profiler:
for pair in 1 2 3 4; do for side in base new2; do
  $J25 -jar $side.jar -f 1 -wi 3 -w 1s -i 5 -r 1s -p depth=3 -p workers=1 -prof gc 'AwaitResumeBenchmark.flowYield' > yield-$side-$pair.txt
done; done
