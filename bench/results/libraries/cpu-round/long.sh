#!/bin/bash
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
CP=/tmp/cpu-base/benchmarks.jar:$(cat /tmp/cpu-base/library-classpath.txt)
for run in 1 2; do
echo "=== run $run start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" > /tmp/cpu-ab/long-$run.txt
$J -Xmx1g -Ddev.flow.loader.cache=off -XX:+PrintCompilation -cp $CP dev.flow.bench.load.LibrarySessions --libraries=jedis,smtp --modes=virtual,continuation --sessions=500 --rounds=15 --warmup-rounds=1 >> /tmp/cpu-ab/long-$run.txt 2>&1
echo "=== run $run end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/cpu-ab/long-$run.txt
done
