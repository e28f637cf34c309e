package dev.flow.mina;

import dev.flow.TransportConfig;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IdleStatus;
import org.apache.mina.core.session.IoSession;

/**
 * The MINA handler shared by all sessions of a {@link FlowServer} or {@link FlowConnector}: attaches
 * a {@link MinaTransport} to each session when it is created and feeds it the session's events.
 *
 * <p>Runs on MINA threads (I/O processors, or the writing thread for in-VM pipes): it only buffers
 * data, completes awaitables and notifies the owner's {@link Listener}, which must not block either.
 * It does not close the session when the peer shuts its output down, so a flow can still answer.
 * An {@link OutOfMemoryError} while it buffers a session's input fails that session (its flow reads an
 * {@link IOException}) and is counted; the I/O thread goes on.
 */
final class TransportIoHandler extends IoHandlerAdapter {

    /** Session lifecycle callbacks for the owner; called on MINA threads, must not block. */
    interface Listener {
        /** The session is open and its transport ready. */
        void opened(MinaTransport transport);

        /** The session has closed. */
        void closed(MinaTransport transport);
    }

    private final TransportConfig config;
    private final Listener listener;
    private final InputBudget budget;
    private final AtomicLong outOfMemoryErrors = new AtomicLong();

    TransportIoHandler(TransportConfig config, Listener listener) {
        this(config, listener, null);
    }

    /**
     * Creates the handler.
     *
     * @param budget the cap on buffered input shared by all its sessions, or {@code null} for none
     */
    TransportIoHandler(TransportConfig config, Listener listener, InputBudget budget) {
        this.config = config;
        this.listener = listener;
        this.budget = budget;
    }

    @Override
    public void sessionCreated(IoSession session) {
        MinaTransport.attach(session, config, budget);
    }

    /**
     * Hands the transport the bytes its connection sent before the session was made (a server whose
     * clients speak first), then tells the listener: the handler starts with them buffered.
     */
    @Override
    public void sessionOpened(IoSession session) {
        FlowSocketAcceptor.deliverFirstBytes(session);
        MinaTransport t = MinaTransport.of(session);
        if (t != null && listener != null) {
            listener.opened(t);
        }
    }

    @Override
    public void messageReceived(IoSession session, Object message) {
        MinaTransport t = MinaTransport.of(session);
        if (t == null) {
            session.closeNow();
        } else if (message instanceof IoBuffer) {
            try {
                t.onReceived((IoBuffer) message);
            } catch (OutOfMemoryError e) {
                outOfMemory(session, t, e);
            }
        } else {
            t.onException(new IOException("message: " + message.getClass().getName()
                    + " (expected: an IoBuffer; Flow sessions must not have a protocol codec)"));
        }
    }

    /**
     * Buffers the bytes {@code t}'s {@link DirectReader} read from the socket (MINA's chain holds only
     * passive filters, which do not look at input) and returns the signal to complete, or {@code null};
     * an {@link OutOfMemoryError} fails the session as in {@link #messageReceived}.
     */
    Signal receiveDirect(IoSession session, MinaTransport t, java.nio.ByteBuffer bytes) {
        try {
            return t.receiveDirect(bytes);
        } catch (OutOfMemoryError e) {
            outOfMemory(session, t, e);
            return null;
        }
    }

    /** Fails the session whose input could not be buffered: its bytes are lost, so is the stream. */
    private void outOfMemory(IoSession session, MinaTransport t, OutOfMemoryError e) {
        outOfMemoryErrors.incrementAndGet();
        try {
            t.onException(e);
        } catch (Throwable again) {
            // Still out of memory: no reader is woken with the reason, but the session ends.
            session.closeNow();
        }
    }

    /** The {@link OutOfMemoryError}s met while buffering input, each of which failed its session. */
    long outOfMemoryErrors() {
        return outOfMemoryErrors.get();
    }

    @Override
    public void event(IoSession session, org.apache.mina.filter.FilterEvent event) {
        MinaTransport t = MinaTransport.of(session);
        if (t != null && event == org.apache.mina.filter.ssl.SslEvent.SECURED) {
            t.onTlsSecured();
        }
    }

    @Override
    public void inputClosed(IoSession session) {
        MinaTransport t = MinaTransport.of(session);
        if (t == null) {
            session.closeNow();
        } else {
            t.onInputClosed();
        }
    }

    @Override
    public void sessionClosed(IoSession session) {
        MinaTransport t = MinaTransport.of(session);
        if (t != null) {
            t.onSessionClosed();
            if (listener != null) {
                listener.closed(t);
            }
        }
    }

    @Override
    public void sessionIdle(IoSession session, IdleStatus status) {
        MinaTransport t = MinaTransport.of(session);
        if (t == null) {
            session.closeNow();
        } else {
            t.onIdle();
        }
    }

    @Override
    public void exceptionCaught(IoSession session, Throwable cause) {
        MinaTransport t = MinaTransport.of(session);
        if (t == null) {
            session.closeNow();
        } else {
            t.onException(cause);
        }
    }
}
