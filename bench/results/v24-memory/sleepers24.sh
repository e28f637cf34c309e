#!/bin/bash
# 1,000,000 sleepers, base (a4fc254) and new alternating, JDK 25; then the soak on the new jar, JDK 17 and 25.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
out=$(dirname "$0")
for side in base new base new; do
  echo "== $side"
  $J25 -Xms4g -Xmx4g -cp /tmp/lead/s33/$side.jar dev.flow.bench.load.Sleepers --mode=continuation --n=1000000 2>&1 | tail -4
done > $out/sleepers-1m-jdk25.txt
mkdir -p $out/soak
java -Xmx512m -cp /tmp/lead/s33/new.jar dev.flow.bench.soak.Soak --seconds 60 > $out/soak/soak-60s-jdk17.log 2>&1
$J25 -Xmx512m -cp /tmp/lead/s33/new.jar dev.flow.bench.soak.Soak --seconds 60 > $out/soak/soak-60s-jdk25.log 2>&1
