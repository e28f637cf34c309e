package dev.flow.samples.hostile;

import dev.flow.TransportConfig;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.launcher.SampleServer;
import java.util.List;
import java.util.Map;

/** A child JVM's main: a sample server whose sessions ignore a stop ({@link dev.flow.samples.hostile.stubborn.StubbornSession}). */
final class StubbornServer implements SampleProtocol {

    public static void main(String[] args) throws InterruptedException {
        SampleServer.main(new StubbornServer(), args);
    }

    @Override
    public String name() {
        return "stubborn";
    }

    @Override
    public String handlerClass() {
        return "dev.flow.samples.hostile.stubborn.StubbornSession";
    }

    @Override
    public List<Setting> settings() {
        return List.of();
    }

    @Override
    public Setup setup(Map<String, String> values) {
        return new Setup(TransportConfig.DEFAULT, List.of());
    }
}
