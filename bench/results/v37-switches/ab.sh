#!/usr/bin/env bash
# #16, v37: pgjdbc-selects (500 sessions on 2 workers, JDK 25), one client JVM per setting, settings alternated.
# usage: ab.sh OUT_PREFIX REPS "label:variant:jvm-args" ...
#   variant: a directory $CPS/<variant> holding cp.txt, a frozen classpath (the bench jar and copies of the modules'
#   jars of one build: bench/target/library-classpath.txt names the modules' target/ jars, which the next build
#   overwrites). base = main at 9ac457d; exp2 = the same with experiment.patch applied.
# Paired ratios per output: python3 ../v36-client-reads/paired.py OUT.
OUT=$1; REPS=$2; shift 2
CPS=${CPS:?directory of frozen classpaths}
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for rep in $(seq 1 "$REPS"); do
  for s in "$@"; do
    label=${s%%:*}; rest=${s#*:}; v=${rest%%:*}; args=${rest#*:}
    # shellcheck disable=SC2086
    $J25 -Xmx1g $args -cp "$(cat "$CPS/$v/cp.txt")" dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-selects \
      --sessions=500 --modes=virtual,continuation,continuation-strict --rounds=10 --warmup-rounds=6 \
      > "$OUT-$label-$rep.txt" 2>&1
  done
done
