package dev.flow.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.samples.http.HttpProtocol;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.redis.RedisProtocol;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The pin report of the HTTP and Redis samples' continuation scope (the packages their loader includes): no pin site. */
class SamplesPinReportTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http", "redis"})
    void verifyPrintsNoPinSiteForTheSample(String sample) throws Exception {
        SampleProtocol protocol = sample.equals("http") ? new HttpProtocol() : new RedisProtocol();
        Path classes = dir.resolve("classes");
        for (String p : protocol.loadedPackages()) {
            BuildTimeConformanceTest.copyPackage(e -> !e.contains("test-classes") && !e.endsWith("-tests.jar"),
                    p.replace('.', '/') + "/", classes);
        }
        VerifyMojo verify = new VerifyMojo();
        verify.includes = protocol.loadedPackages();
        verify.classesDirectory = classes.toFile();
        verify.originalsDirectory = dir.resolve("originals").toFile();
        verify.classpathElements = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        verify.strict = true;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        verify.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        verify.execute();
        assertEquals(List.of("0 pin sites"), List.of(out.toString(StandardCharsets.UTF_8).split("\\R")));
    }
}
