#!/usr/bin/env bash
# A against B on pgjdbc-selects at HotSpot's defaults: 500 sessions, 8 rounds after 4 warm-ups, virtual threads and
# continuation, JDK 25, the two jars alternated twice. Usage: ab34.sh A_JAR B_JAR OUT
set -u
cd "$(dirname "$0")/../../.."
R=$3
mkdir -p $R
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for i in 1 2; do for j in A B; do
  [ $j = A ] && jar=$1 || jar=$2
  $J25 -Xmx1g -cp $jar:$CP dev.flow.bench.load.LibrarySessions --libraries=${LIB:-pgjdbc-selects} \
    --sessions=500 --modes=virtual,continuation --rounds=8 --warmup-rounds=4 > $R/ab-$j$i.txt 2>&1
done; done
