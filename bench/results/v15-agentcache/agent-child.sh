#!/bin/sh
# One JVM under the agent that instruments flow-agent's test fixtures, runs them and exits (AgentChild);
# usage: agent-child.sh off | warm | cold   (the agent's ;cache= option: off, a directory kept between
# runs, or one emptied before each run). Needs mvn -B -o -q -pl flow-agent -am verify -DskipTests.
ROOT=${ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
M2=${M2:-$HOME/.m2/repository}
case "$1" in
  off) C=off ;;
  warm) C=$ROOT/flow-agent/target/bench-cache/warm ;;
  cold) rm -rf $ROOT/flow-agent/target/bench-cache/cold; C=$ROOT/flow-agent/target/bench-cache/cold ;;
esac
exec java -Xmx256m "-javaagent:$ROOT/flow-agent/target/flow-agent-0.1.0-SNAPSHOT.jar=include=flowtest.agent,flowtest.fixtures;cache=$C" -cp $M2/net/tascalate/javaflow/net.tascalate.javaflow.api/2.7.8/net.tascalate.javaflow.api-2.7.8.jar:$ROOT/flow-classloader/target/flow-classloader-0.1.0-SNAPSHOT-tests.jar:$M2/org/slf4j/slf4j-nop/2.0.20/slf4j-nop-2.0.20.jar:$M2/org/slf4j/slf4j-api/2.0.20/slf4j-api-2.0.20.jar:$ROOT/flow-agent/target/test-classes:$ROOT/flow-core/target/flow-core-0.1.0-SNAPSHOT.jar dev.flow.agent.AgentChild flowtest.fixtures.DeepChain flowtest.fixtures.SynchronizedBlock flowtest.fixtures.ForEachCallback flowtest.fixtures.Reflective
