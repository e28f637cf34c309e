#!/usr/bin/env bash
# 60 s soaks on this stop's jar: the soak's handler strict, then lenient (--lenient), JDK 17 then 25.
# Usage: soak32.sh [BENCH_JAR] (default bench/target/benchmarks.jar); the class path from bench/target/library-classpath.txt.
set -u
cd "$(dirname "$0")/../../.."
J=${1:-bench/target/benchmarks.jar}
CP=$(cat bench/target/library-classpath.txt)
R=bench/results/v32-huge-methods/soak
mkdir -p $R
for jdk in 17 25; do
  JAVA=java; [ $jdk = 25 ] && JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  $JAVA -Xmx512m -cp $J:$CP dev.flow.bench.soak.Soak --seconds 60 > $R/soak-60s-jdk$jdk.log 2>&1
  $JAVA -Xmx512m -cp $J:$CP dev.flow.bench.soak.Soak --seconds 60 --lenient > $R/soak-60s-lenient-jdk$jdk.log 2>&1
done
