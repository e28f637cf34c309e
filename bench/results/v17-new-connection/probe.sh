#!/bin/bash
# probe.sh JAR MODE [first-byte] [stamp]: starts the LatencyProbe server (-Xmx64m, JDK 25) in MODE, runs the
# new-connection client (from CLIENT, default JAR: N=150 connections unloaded, then as many from the start of a
# RATE=3500/s reset flood), samples the listening socket's accept queue (ss, Recv-Q) every 10 ms meanwhile,
# and prints the client's two lines and the queue's percentiles.
JAR=$1; shift
J=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
OUT=$(mktemp); Q=$(mktemp)
$J -Xmx64m ${SJOPTS:-} -cp $JAR dev.flow.bench.hostile.LatencyProbe server "$@" > $OUT 2>&1 < <(sleep 120) &
pid=$!
for i in $(seq 1 100); do grep -q '^port' $OUT && break; sleep 0.2; done
port=$(grep '^port' $OUT | cut -d' ' -f2)
( for i in $(seq 1 1500); do ss -ltnH "sport = :$port" | awk '{print $2}'; sleep 0.01; done ) > $Q &
sp=$!
$J -cp ${CLIENT:-$JAR} dev.flow.bench.hostile.LatencyProbe new $port ${N:-150} ${RATE:-3500} | sed "s/^/$* /"
kill $sp 2>/dev/null; kill $pid; wait $pid 2>/dev/null; rm -f $OUT
sort -n $Q | awk '{a[NR]=$1} END {print "accept queue samples", NR, "p50", a[int(NR*0.5)], "p90", a[int(NR*0.9)], "p99", a[int(NR*0.99)], "max", a[NR]}'
rm -f $Q
