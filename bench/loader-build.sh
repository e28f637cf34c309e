#!/bin/sh
# Loader-build benchmark (dev.flow.bench.LoaderBuild) over real jar sets from the local Maven repository
# (bench/pom.xml declares them test-scoped, so `mvn -pl bench -am verify` fetches them).
# Usage: bench/loader-build.sh [jedis|net] [extra java options...]; JAVA, JAR and LOAD override the defaults;
# CACHE=<dir> builds the loader with its persistent class cache in <dir> (an empty directory: cold; one a
# previous run filled: warm).
set -eu
M2=${M2:-$HOME/.m2/repository}
JAVA=${JAVA:-java}
JAR=${JAR:-$(dirname "$0")/target/benchmarks.jar}
LOAD=${LOAD:-50}
set_name=${1:-jedis}
[ $# -gt 0 ] && shift
case "$set_name" in
  jedis)
    JARS=$M2/redis/clients/jedis/8.0.2/jedis-8.0.2.jar:$M2/org/apache/commons/commons-pool2/2.13.1/commons-pool2-2.13.1.jar:$M2/com/google/code/gson/gson/2.14.0/gson-2.14.0.jar:$M2/org/json/json/20260719/json-20260719.jar:$M2/redis/clients/authentication/redis-authx-core/0.1.1-beta2/redis-authx-core-0.1.1-beta2.jar:$M2/com/google/errorprone/error_prone_annotations/2.48.0/error_prone_annotations-2.48.0.jar
    INCLUDE=redis.clients.jedis,org.apache.commons.pool2,com.google.gson,org.json ;;
  net)
    JARS=$M2/commons-net/commons-net/3.12.0/commons-net-3.12.0.jar:$M2/commons-io/commons-io/2.20.0/commons-io-2.20.0.jar
    INCLUDE=org.apache.commons.net ;;
  *) echo "set: $set_name (expected: jedis or net)" >&2; exit 2 ;;
esac
exec "$JAVA" "$@" -cp "$JAR" dev.flow.bench.LoaderBuild --jars "$JARS" --include "$INCLUDE" --load "$LOAD" ${CACHE:+--cache "$CACHE"}
