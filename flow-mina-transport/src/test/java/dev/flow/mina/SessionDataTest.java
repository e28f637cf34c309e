package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.DefaultIoSessionDataStructureFactory;
import org.apache.mina.core.session.IoSessionAttributeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionData}'s attribute map, which keeps the transport in a field, answers every operation as MINA's own
 * map does, for the transport's key and for any other; and Flow's services use it.
 */
class SessionDataTest {

    private static final AttributeKey OTHER = new AttributeKey(SessionDataTest.class, "other");
    /** A key equal to the transport's, made apart: it names the same attribute. */
    private static final AttributeKey TRANSPORT_TWIN = new AttributeKey(MinaTransport.class, "transport");

    private static IoSessionAttributeMap mina() throws Exception {
        return new DefaultIoSessionDataStructureFactory().getAttributeMap(null);
    }

    private static IoSessionAttributeMap flow() throws Exception {
        return SessionData.INSTANCE.getAttributeMap(null);
    }

    /** Every operation in turn on {@code key}, each one's result, and the keys held after each. */
    private static List<Object> script(IoSessionAttributeMap m, Object key) {
        String t1 = "t1";
        String t2 = "t2";
        String t3 = "t3";
        List<Object> out = new ArrayList<>();
        List<Function<IoSessionAttributeMap, Object>> steps = List.of(
                a -> a.getAttribute(null, key, null),
                a -> a.setAttributeIfAbsent(null, key, null),
                a -> a.containsAttribute(null, key),
                a -> a.setAttributeIfAbsent(null, key, t1),
                a -> a.setAttributeIfAbsent(null, key, t2),
                a -> a.getAttribute(null, key, "default"),
                a -> a.replaceAttribute(null, key, t2, t3),
                a -> a.replaceAttribute(null, key, t1, null),
                a -> a.replaceAttribute(null, key, null, t3),
                a -> a.replaceAttribute(null, key, new String("t1"), t3),
                a -> a.removeAttribute(null, key, t1),
                a -> a.removeAttribute(null, key, null),
                a -> a.removeAttribute(null, key, new String("t3")),
                a -> a.containsAttribute(null, key),
                a -> a.getAttribute(null, key, "default"),
                a -> a.getAttribute(null, key, null),
                a -> a.setAttribute(null, key, t1),
                a -> a.setAttribute(null, key, null),
                a -> a.containsAttribute(null, key),
                a -> a.setAttribute(null, key, t2),
                a -> a.removeAttribute(null, key),
                a -> a.removeAttribute(null, key));
        for (Function<IoSessionAttributeMap, Object> step : steps) {
            out.add(step.apply(m));
            out.add(Set.copyOf(m.getAttributeKeys(null)));
        }
        return out;
    }

    @Test
    void theTransportsKeyIsAnsweredAsMinasMapAnswersIt() throws Exception {
        assertEquals(script(mina(), MinaTransport.TRANSPORT_KEY), script(flow(), MinaTransport.TRANSPORT_KEY));
    }

    @Test
    void aKeyEqualToTheTransportsNamesTheSameAttribute() throws Exception {
        assertEquals(script(mina(), TRANSPORT_TWIN), script(flow(), TRANSPORT_TWIN));
        IoSessionAttributeMap m = flow();
        m.setAttribute(null, TRANSPORT_TWIN, "t");
        assertEquals("t", m.getAttribute(null, MinaTransport.TRANSPORT_KEY, null));
    }

    @Test
    void otherKeysAreAnsweredAsMinasMapAnswersThem() throws Exception {
        assertEquals(script(mina(), OTHER), script(flow(), OTHER));
        IoSessionAttributeMap m = flow();
        m.setAttribute(null, OTHER, "o");
        m.setAttribute(null, MinaTransport.TRANSPORT_KEY, "t");
        assertEquals(Set.of(OTHER, MinaTransport.TRANSPORT_KEY), m.getAttributeKeys(null));
        assertEquals("o", m.getAttribute(null, OTHER, null));
    }

    @Test
    void aNullKeyIsRefusedAsMinaRefusesIt() throws Exception {
        IoSessionAttributeMap m = flow();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.getAttribute(null, null, null));
        assertEquals("key", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.setAttribute(null, null, "v"));
    }

    @Test
    void flowsServersAndConnectorsKeepTheirSessionsTransportsInTheField() throws Exception {
        try (FlowConnector connector = FlowConnector.builder().daemonThreads(true).build()) {
            FlowServer server = FlowServer.builder().threadPerSession()
                    .handler(t -> (Callable<String>) t::readLine)
                    .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
            try {
                MinaTransport t = (MinaTransport) connector.connect(server.localAddress());
                assertSame(SessionData.INSTANCE, t.session().getService().getSessionDataStructureFactory());
                assertSame(t, MinaTransport.of(t.session()));
                assertSame(SessionData.INSTANCE, server.tcpAcceptor().getSessionDataStructureFactory());
                t.close();
            } finally {
                server.close();
            }
        }
    }
}
