package dev.flow;

/**
 * A hold on the memory of a transport's reads, opened by {@link Transport#holdReads()}: until it is
 * closed, the arrays that {@link Transport#readFully(int)} returns stay counted against the
 * transport's memory bound (a server's input budget). Close it in a try-with-resources block around a
 * request, once the handler no longer holds what it read. Belongs to the flow or thread that uses the
 * transport; not thread-safe.
 */
public interface MemoryHold extends AutoCloseable {

    /** The bytes this hold counts now (0 on a transport without a memory bound). */
    long bytes();

    /** Releases the bytes this hold counts; a second call does nothing. Never blocks. */
    @Override
    void close();
}
