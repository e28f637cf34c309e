# Sourced by cs.sh, rec.sh and place.sh: starts a LoadServer (MODE, JAR, extra JVM options in "$@") serving
# RESP with the plain handlers on JDK 25; sets pid (the launcher), port and spid (the server's JVM).
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
LOG=$(mktemp)
$J25 -Xms1g -Xmx1g -XX:+UseG1GC "$@" -cp $JAR dev.flow.bench.load.LoadServer --mode=$MODE --protocol=redis --handlers=plain > $LOG 2>&1 < <(sleep 60) &
pid=$!
for _ in $(seq 1 300); do grep -q 'LISTENING' $LOG && break; sleep 0.2; done
port=$(grep -o 'LISTENING [0-9]*' $LOG | head -1 | grep -o '[0-9]*$')
spid=$(grep -o 'pid=[0-9]*' $LOG | head -1 | cut -d= -f2)
