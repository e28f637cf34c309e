package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * #18 finding 7: an application with no SLF4J provider (Flow does not force one on it) starts and runs
 * servers without SLF4J's "no providers" warning, and Flow's own warnings still reach it through
 * {@link System.Logger}. Runs in a child JVM whose class path has no provider.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NoLoggingProviderTest {

    @Test
    void serversStartWithoutSlf4jWarningsAndFlowsWarningsStillGoToSystemLogger(@TempDir Path dir) throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.contains("slf4j-nop") && !e.contains("slf4j-simple") && !e.contains("logback"))
                .collect(Collectors.joining(File.pathSeparator));
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(List.of(java, "-Xmx128m", "-cp", classPath, NoLoggingProviderMain.class.getName()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(45, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child JVM did not end within 45 s: " + Files.readString(out));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("250 QUIT") && output.contains("done"), output);
        assertFalse(output.contains("SLF4J"), output);
        assertTrue(output.contains("boom from the handler"), "Flow's warning about the failed session: " + output);
    }
}
