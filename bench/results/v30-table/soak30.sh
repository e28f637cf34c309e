#!/usr/bin/env bash
# 60 s soaks on main (b0fd809): the soak's handler strict, then lenient (--lenient), JDK 17 then 25.
set -u
cd "$(dirname "$0")/../../.."
J=${J:-/tmp/lead/s39/main.jar}
CP=${CP:-$(cat /tmp/lead/s38/cp.txt)}
R=bench/results/v30-table/soak
for jdk in 17 25; do
  JAVA=java; [ $jdk = 25 ] && JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  $JAVA -Xmx512m -cp $J:$CP dev.flow.bench.soak.Soak --seconds 60 > $R/soak-60s-jdk$jdk.log 2>&1
  $JAVA -Xmx512m -cp $J:$CP dev.flow.bench.soak.Soak --seconds 60 --lenient > $R/soak-60s-lenient-jdk$jdk.log 2>&1
done
