#!/bin/bash
# 3 interleaved rounds of the SMTP load in sync, continuation, continuation-io-threads, virtual (JDK 25)
cd /work/main
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in 1 2 3; do
  for m in sync continuation-immediately continuation-io virtual; do
    echo "== round $r mode $m"
    timeout 120 $J25 -cp bench/target/benchmarks.jar dev.flow.bench.load.LoadClient --mode=$m --protocol=smtp \
      --connections=100 --warmup-s=2 --steady-s=5 --rampdown-s=1 --server-java=$J25 --quiet
  done
done
