package flowtest.conformance.network;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.concurrent.Callable;

/** A blocking {@code Pipe}'s sink write and source read: they wait for the other end inside the JDK, reported. */
public final class PipeChannelBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Pipe pipe = Pipe.open();
        try (Pipe.SinkChannel sink = pipe.sink(); Pipe.SourceChannel source = pipe.source()) {
            sink.write(ByteBuffer.wrap(new byte[] {5}));
            ByteBuffer b = ByteBuffer.allocate(1);
            source.read(b);
            return "read " + b.get(0);
        }
    }
}
