#!/usr/bin/env bash
# The self samples of a collapsed CPU profile (async-profiler, event=cpu, interval=1ms, threads), by what they run:
# kernel frames, pgjdbc and the session class, Flow, JavaFlow, MINA, the JDK's Java code, the JIT compiler and GC
# threads, and the JVM's native code. Usage: split33.sh FILE.collapsed.gz
zcat "$1" | awk '{n=$NF; $NF=""; sub(/ $/,""); k=split($0,a,";"); f=a[k]; c="other Java";
  if (f ~ /_\[k\]$/) c="kernel"; else if (f ~ /^org\/postgresql|^flowtest/) c="pgjdbc and the session";
  else if (f ~ /^dev\/flow/) c="Flow"; else if (f ~ /javaflow/) c="JavaFlow"; else if (f ~ /^org\/apache\/mina/) c="MINA";
  else if (f ~ /^java\/|^jdk\/|^sun\//) c="JDK (Java)"; else if (a[1] ~ /C2|C1|GC|G1/) c="JIT and GC threads";
  else if (f !~ /\//) c="JVM native"; s[c]+=n; t+=n} END {for (x in s) print s[x] "\t" x; print t "\ttotal"}' | sort -rn
