#!/usr/bin/env bash
# #16: the system calls of pgjdbc-selects per connection, client and PostgreSQL, virtual threads against
# continuations. One client JVM per mode under `strace -f` (which follows PostgreSQL's processes, started by the
# driver), 50 sessions, one warm-up round and one measured round; the traces stay in OUT (8 MB each).
# Usage: strace35.sh [OUT]; needs strace, the bench jar and bench/target/library-classpath.txt.
set -u
cd "$(dirname "$0")/../../.."
OUT=${1:-/tmp/strace35}
mkdir -p "$OUT"
CP=$(cat bench/target/library-classpath.txt)
J25=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
for m in virtual continuation; do
  strace -f -qq -yy -e trace=write,writev,sendto,sendmsg,read,readv,recvfrom,recvmsg -o "$OUT/$m.strace" \
    $J25 -Xmx1g -cp bench/target/benchmarks.jar:$CP dev.flow.bench.load.LibrarySessions --libraries=pgjdbc-selects \
    --sessions=50 --modes=$m --rounds=1 --warmup-rounds=1 > "$OUT/$m.out" 2>&1
  echo "== $m (exit $?)"
  # The client is Java (read/write on its sockets), PostgreSQL's backends use recvfrom/sendto.
  echo "client writes per connection (count of connections):"
  grep -oE " write\([0-9]+<TCPv6:\[[^]]*\]:[0-9]+->" "$OUT/$m.strace" | sort | uniq -c | awk '{print $1}' | sort -n | uniq -c | tr '\n' ' '; echo
  for c in sendto recvfrom; do
    echo "PostgreSQL $c per backend (count of backends):"
    grep -E "^[0-9]+ +$c\([0-9]+<TCP" "$OUT/$m.strace" | awk '{print $1}' | sort | uniq -c | awk '{print $1}' | sort -n | uniq -c | tr '\n' ' '; echo
  done
  echo "client read calls: $(grep -cE " read\([0-9]+<TCP" "$OUT/$m.strace"); PostgreSQL recvfrom calls returning EAGAIN: $(grep -E "^[0-9]+ +recvfrom\(" "$OUT/$m.strace" | grep -c EAGAIN)"
done
