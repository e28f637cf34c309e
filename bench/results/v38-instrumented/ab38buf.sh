#!/usr/bin/env bash
# #16, v38: Flow's BufferedWriter and BufferedOutputStream starting at 512 and growing (as the JDK's on a virtual
# thread), A/B: $CPS/cur (ab38.sh's "cur": the lookup change) and $CPS/buf (the same with the buffers), alternated
# REPS times, one client JVM each (JDK 25, 500 sessions, 30 rounds after 15 warm-ups), Commons Net SMTP and Jakarta
# Mail (lenient only: it pins). usage: CPS=<dir> ab38buf.sh OUT_DIR REPS; then ../v36-client-reads/paired.py.
OUT=$1; REPS=$2
CPS=${CPS:?directory of frozen classpaths}
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$OUT"
for rep in $(seq 1 "$REPS"); do
  for lib in smtp jakarta-mail; do
    for v in cur buf; do
      $J25 -Xmx1g -cp "$(cat "$CPS/$v/cp.txt")" dev.flow.bench.load.LibrarySessions --libraries="$lib" --sessions=500 \
        --modes=virtual,virtual-instrumented,continuation --rounds=30 --warmup-rounds=15 > "$OUT/$lib-$v-$rep.txt" 2>&1
    done
  done
done
