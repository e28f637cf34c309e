#!/usr/bin/env bash
# Interleaved rounds of the load driver over several loads and several (jar, mode) servers, so that
# every ratio compares runs made minutes apart on the same machine. Bounded: each run lasts
# WARMUP + STEADY + RAMPDOWN seconds plus JVM start-up; ROUNDS x loads x servers runs in all. Within a
# load, the servers run in the order given in round 1, rotated by one each round after.
#
#   bench/protocol-rounds.sh OUT_DIR "label=JAR:MODE ..." ["protocol:connections:pipeline ..."]
#
# e.g. bench/protocol-rounds.sh bench/results/load/v5 \
#        "before=/tmp/before.jar:continuation-immediately after=bench/target/benchmarks.jar:continuation-io vt=bench/target/benchmarks.jar:virtual"
#
# Writes OUT_DIR/<round>-<protocol>-<connections>-<pipeline>-<label>.log per run and prints the
# median table (python3 bench/protocol-medians.py OUT_DIR [BASELINE_LABEL] prints it again). Needs a JDK 21+ for the
# virtual mode: JAVA (default: the Temurin 25 beside the default JDK). SERVER_JVM_ARGS, if set, replaces
# the server JVM's default options (ServerProcess.DEFAULT_JVM_ARGS of the jar that runs). PERF=1 also counts
# the server's system calls, context switches and CPU time with perf stat (software events: they need no
# hardware counters) over WARMUP..WARMUP+STEADY s of each run, into <log>.perf; protocol-medians.py divides
# them by the requests of the steady state. JVM_ARGS_<label>, if set, is added to that label's server JVM
# options (after SERVER_JVM_ARGS, or the default ones), e.g. JVM_ARGS_adapt=-Dflow.mina.directReads=adaptive.
# HANDLERS (samples, the default, samples-strict, plain or plain-lenient) is passed to every run as --handlers (left out for samples, so
# that jars older than the option still run): plain serves HTTP and RESP
# with the bench's PlainHttp and PlainResp (one flush per response, as handlers written elsewhere do: #19's
# untuned baseline) instead of the samples' session code, in the sync, virtual and continuation modes (netty
# and mina serve their own handlers and ignore it; echo is LineEcho either way; smtp has no plain handler and
# is skipped). HANDLERS_<label>, if set, replaces HANDLERS for that label, so that one run can interleave both,
# e.g. HANDLERS_vts=samples beside HANDLERS=plain.
set -u
cd "$(dirname "$0")/.."
OUT=$1
SERVERS=$2
LOADS=${3:-"http:100:1 http:1000:1 resp-ping:50:1 resp-ping:50:16 echo:1000:1"}
ROUNDS=${ROUNDS:-3}
WARMUP=${WARMUP:-5}
STEADY=${STEADY:-10}
RAMPDOWN=${RAMPDOWN:-1}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
SERVER_JVM_ARGS=${SERVER_JVM_ARGS:-}
HANDLERS=${HANDLERS:-samples}
# ServerProcess.DEFAULT_JVM_ARGS, for JVM_ARGS_<label> without SERVER_JVM_ARGS
DEFAULT_JVM_ARGS="-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch"
mkdir -p "$OUT"
for round in $(seq 1 "$ROUNDS"); do
  for load in $LOADS; do
    IFS=: read -r protocol connections pipeline <<<"$load"
    # The servers' order rotates by one each round (round 1 as given), so that none always runs first or
    # right after the same other one.
    read -r -a listed <<<"$SERVERS"
    for k in "${!listed[@]}"; do
      server=${listed[$(( (k + round - 1) % ${#listed[@]} ))]}
      label=${server%%=*}
      rest=${server#*=}
      jar=${rest%:*}
      mode=${rest##*:}
      if [ "$mode" = mina ] && [ "$protocol" != echo ]; then
        continue
      fi
      if [ "$mode" = netty ] && [ "$protocol" = smtp ]; then
        continue
      fi
      handlers_var="HANDLERS_$label"
      handlers=${!handlers_var:-$HANDLERS}
      if [ "${handlers#plain}" != "$handlers" ] && [ "$protocol" = smtp ] && [ "$mode" != netty ] && [ "$mode" != mina ]; then
        echo "round $round: $protocol c$connections p$pipeline $label skipped: no plain smtp handler"
        continue
      fi
      handlers_arg=
      if [ "$handlers" != samples ]; then
        handlers_arg=--handlers=$handlers
      fi
      log="$OUT/$round-$protocol-$connections-$pipeline-$label.log"
      extra_var="JVM_ARGS_$label"
      jvm_args=$SERVER_JVM_ARGS
      if [ -n "${!extra_var:-}" ]; then
        jvm_args="${SERVER_JVM_ARGS:-$DEFAULT_JVM_ARGS} ${!extra_var}"
      fi
      echo "round $round: $protocol c$connections p$pipeline $label ($mode, $handlers handlers, $jar)"
      timeout $((WARMUP + STEADY + RAMPDOWN + 60)) "$JAVA" -cp "$jar" dev.flow.bench.load.LoadClient \
        --mode="$mode" --protocol="$protocol" --connections="$connections" --pipeline="$pipeline" \
        --warmup-s="$WARMUP" --steady-s="$STEADY" --rampdown-s="$RAMPDOWN" --server-java="$JAVA" \
        ${handlers_arg:+"$handlers_arg"} ${jvm_args:+--server-jvm-args="$jvm_args"} >"$log" 2>&1 &
      client=$!
      if [ "${PERF:-0}" = 1 ]; then
        pid=
        for _ in $(seq 1 600); do
          pid=$(sed -n 's/^server: mode [^,]*, pid \([0-9]*\),.*/\1/p' "$log" | head -1)
          [ -n "$pid" ] && break
          sleep 0.1
        done
        if [ -n "$pid" ]; then
          sleep "$WARMUP"
          perf stat -x, -e raw_syscalls:sys_enter,context-switches,task-clock -p "$pid" -- sleep "$STEADY" 2>"$log.perf" >/dev/null
        fi
      fi
      wait "$client" || echo "  run failed: see $log"
      grep -E '^RESULT|^  server:|INVALID' "$log" | sed 's/^/  /'
    done
  done
done
exec python3 bench/protocol-medians.py "$OUT"
