package dev.flow.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import flowtest.support.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under the agent, a class refused at load time (strict) shows in a JFR recording of the application as a
 * {@code dev.flow.Refused} event, as through the loader.
 */
class AgentFlightRecorderTest {

    @TempDir
    Path dir;

    @Test
    void aClassTheAgentRefusesIsRecordedAsARefusedEvent() throws Exception {
        Path file = dir.resolve("agent.jfr");
        ChildJvm jvm = ChildJvm.run(List.of("-XX:StartFlightRecording=filename=" + file,
                "-javaagent:" + AgentJvm.agentJar() + "=include=flowtest.agent,flowtest.refused;strict", "-Xmx256m",
                "-cp", AgentJvm.applicationClassPath(), AgentChild.class.getName(), "load:flowtest.refused.Huge"),
                Duration.ofSeconds(60));
        assertEquals(0, jvm.exitCode, jvm.output());
        assertTrue(jvm.line("LOAD").contains("InstrumentationException"), jvm.output());

        List<RecordedEvent> refused = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.flow.Refused")).collect(Collectors.toList());
        assertEquals(1, refused.size(), () -> refused + "\n" + jvm.output());
        assertEquals("flowtest.refused.Huge.run(Huge.java)", refused.get(0).getString("site"));
        assertTrue(refused.get(0).getString("reason").startsWith("method too large after instrumentation"),
                () -> refused.get(0).getString("reason"));
    }
}
