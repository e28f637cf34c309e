#!/usr/bin/env bash
# A (OwnedSync with its waiter queue and readers' map made up front) against B (made at the first waiter, the first
# reader): pgjdbc-selects, 500 sessions, 8 rounds after 4 warm-ups, virtual threads and continuation, JDK 25 with
# -XX:-DontCompileHugeMethods, the two jars alternated twice. Usage: ab33.sh A_JAR B_JAR [OUT]
set -u
cd "$(dirname "$0")/../../.."
R=${3:-bench/results/v33-client-split/ab}
mkdir -p $R
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for i in 1 2; do for j in A B; do
  [ $j = A ] && jar=$1 || jar=$2
  $J25 -Xmx1g -XX:-DontCompileHugeMethods -cp $jar:$CP dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-selects \
    --sessions=500 --modes=virtual,continuation --rounds=8 --warmup-rounds=4 > $R/ab-$j$i.txt 2>&1
done; done
