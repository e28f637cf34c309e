#!/usr/bin/env bash
# Drives the sample servers' runnable jars with real load tools: wrk (HTTP sample) and
# redis-benchmark (RESP sample), in sync and continuation mode. Bounded: each tool run lasts
# DURATION seconds (wrk) or REQUESTS requests (redis-benchmark). Never needed by the tests.
#
#   mvn -B -q -DskipTests package -pl samples/http-server,samples/redis-server -am
#   bench/drive-samples.sh [DURATION=5] [REQUESTS=100000] [CONNECTIONS=100] [MODES="sync continuation"]
#
# A tool that is not installed is skipped with a message (apt-get install -y wrk redis-tools).
set -u
cd "$(dirname "$0")/.."
DURATION=${DURATION:-5}
REQUESTS=${REQUESTS:-100000}
CONNECTIONS=${CONNECTIONS:-100}
MODES=${MODES:-sync continuation}
JAVA=${JAVA:-java}

start_server() { # jar mode -> sets PID and PORT, or returns 1
  local jar=$1 mode=$2 log
  log=$(mktemp)
  local extra=""
  [ "$mode" = continuation ] && extra="--workers 2"
  "$JAVA" -jar "$jar" --port 0 --mode "$mode" $extra >"$log" 2>&1 &
  PID=$!
  for _ in $(seq 1 300); do
    PORT=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log")
    [ -n "$PORT" ] && { rm -f "$log"; return 0; }
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "server $jar ($mode) did not start:"; cat "$log"; rm -f "$log"
  kill "$PID" 2>/dev/null
  return 1
}

stop_server() {
  kill -TERM "$PID" 2>/dev/null
  for _ in $(seq 1 100); do kill -0 "$PID" 2>/dev/null || return 0; sleep 0.1; done
  echo "server $PID did not stop within 10 s after SIGTERM; killing it"; kill -KILL "$PID" 2>/dev/null
}

run_http() {
  local jar=samples/http-server/target/http-server.jar
  if ! command -v wrk >/dev/null; then echo "SKIPPED http: wrk is not installed (apt-get install -y wrk)"; return; fi
  if [ ! -f "$jar" ]; then echo "SKIPPED http: $jar missing (mvn -B -q -DskipTests package -pl samples/http-server -am)"; return; fi
  for mode in $MODES; do
    start_server "$jar" "$mode" || continue
    echo "== wrk against http-server --mode $mode (port $PORT): $CONNECTIONS connections, ${DURATION}s"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "http://127.0.0.1:$PORT/"
    stop_server
  done
}

run_redis() {
  local jar=samples/redis-server/target/redis-server.jar
  if ! command -v redis-benchmark >/dev/null; then
    echo "SKIPPED redis: redis-benchmark is not installed (apt-get install -y redis-tools)"; return
  fi
  if [ ! -f "$jar" ]; then echo "SKIPPED redis: $jar missing (mvn -B -q -DskipTests package -pl samples/redis-server -am)"; return; fi
  for mode in $MODES; do
    start_server "$jar" "$mode" || continue
    for pipeline in 1 16; do
      echo "== redis-benchmark against redis-server --mode $mode (port $PORT): $REQUESTS requests, $CONNECTIONS clients, pipeline $pipeline"
      redis-benchmark -h 127.0.0.1 -p "$PORT" -q -n "$REQUESTS" -c "$CONNECTIONS" -P "$pipeline" -t ping,set,get 2>&1 \
        | tr '\r' '\n' | grep -E 'requests per second|rror'
    done
    stop_server
  done
}

run_http
run_redis
