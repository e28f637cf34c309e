package dev.flow.mina;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashSet;
import java.util.Set;
import org.apache.mina.core.session.DefaultIoSessionDataStructureFactory;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.session.IoSessionAttributeMap;
import org.apache.mina.core.session.IoSessionDataStructureFactory;
import org.apache.mina.core.write.WriteRequestQueue;

/**
 * The session data of Flow's MINA services (its servers' acceptors, its connectors): MINA's, except that a session's
 * attribute map keeps the session's {@link MinaTransport} ({@link MinaTransport#TRANSPORT_KEY}) in a field of its
 * own. {@link MinaTransport#of} runs on every read of every session, and in MINA's map it is a {@code
 * ConcurrentHashMap} probe of a small table that is cold in the cache when a thousand sessions take turns; here it is
 * one load (bench/RESULTS.md, "Where pgjdbc's client CPU goes"). The other attributes are in MINA's own map. Each
 * operation on the transport's key does what MINA's map does with it, atomically: a {@code null} value removes
 * (setting) or does nothing (setting if absent); removing or replacing compares with {@code equals}.
 *
 * <p>Stateless and thread-safe; the maps it makes are thread-safe as MINA's are.
 */
final class SessionData implements IoSessionDataStructureFactory {

    /** The one instance: it holds nothing of its own. */
    static final SessionData INSTANCE = new SessionData();

    private final DefaultIoSessionDataStructureFactory mina = new DefaultIoSessionDataStructureFactory();

    private SessionData() {
    }

    @Override
    public IoSessionAttributeMap getAttributeMap(IoSession session) throws Exception {
        return new Attributes(mina.getAttributeMap(session));
    }

    @Override
    public WriteRequestQueue getWriteRequestQueue(IoSession session) throws Exception {
        return mina.getWriteRequestQueue(session);
    }

    /** A session's attributes: its transport in {@link #transport}, the rest in MINA's map. */
    static final class Attributes implements IoSessionAttributeMap {
        private static final VarHandle TRANSPORT;

        static {
            try {
                TRANSPORT = MethodHandles.lookup().findVarHandle(Attributes.class, "transport", Object.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final IoSessionAttributeMap others;
        /** The value of {@link MinaTransport#TRANSPORT_KEY}, or {@code null} if it has none. */
        private volatile Object transport;

        Attributes(IoSessionAttributeMap others) {
            this.others = others;
        }

        private static boolean isTransport(Object key) {
            return key == MinaTransport.TRANSPORT_KEY || MinaTransport.TRANSPORT_KEY.equals(key);
        }

        @Override
        public Object getAttribute(IoSession session, Object key, Object defaultValue) {
            if (!isTransport(key)) {
                return others.getAttribute(session, key, defaultValue);
            }
            if (defaultValue == null) {
                return transport;
            }
            // as MINA's map: the default is stored if the key has no value
            Object was = TRANSPORT.compareAndExchange(this, null, defaultValue);
            return was == null ? defaultValue : was;
        }

        @Override
        public Object setAttribute(IoSession session, Object key, Object value) {
            return isTransport(key) ? TRANSPORT.getAndSet(this, value) : others.setAttribute(session, key, value);
        }

        @Override
        public Object setAttributeIfAbsent(IoSession session, Object key, Object value) {
            if (!isTransport(key)) {
                return others.setAttributeIfAbsent(session, key, value);
            }
            return value == null ? null : TRANSPORT.compareAndExchange(this, null, value);
        }

        @Override
        public Object removeAttribute(IoSession session, Object key) {
            return isTransport(key) ? TRANSPORT.getAndSet(this, null) : others.removeAttribute(session, key);
        }

        @Override
        public boolean removeAttribute(IoSession session, Object key, Object value) {
            if (!isTransport(key)) {
                return others.removeAttribute(session, key, value);
            }
            return replace(value, null);
        }

        @Override
        public boolean replaceAttribute(IoSession session, Object key, Object oldValue, Object newValue) {
            if (!isTransport(key)) {
                return others.replaceAttribute(session, key, oldValue, newValue);
            }
            return newValue != null && replace(oldValue, newValue);
        }

        /**
         * Sets the transport's value to {@code to} if it has one and {@code from} equals it (as {@code
         * ConcurrentHashMap.replace} compares); {@code false} if {@code from} is {@code null}.
         */
        private boolean replace(Object from, Object to) {
            if (from == null) {
                return false;
            }
            for (;;) {
                Object now = transport;
                if (now == null || now != from && !from.equals(now)) {
                    return false;
                }
                if (TRANSPORT.compareAndSet(this, now, to)) {
                    return true;
                }
            }
        }

        @Override
        public boolean containsAttribute(IoSession session, Object key) {
            return isTransport(key) ? transport != null : others.containsAttribute(session, key);
        }

        @Override
        public Set<Object> getAttributeKeys(IoSession session) {
            Set<Object> keys = new HashSet<>(others.getAttributeKeys(session));
            if (transport != null) {
                keys.add(MinaTransport.TRANSPORT_KEY);
            }
            return keys;
        }

        @Override
        public void dispose(IoSession session) throws Exception {
            others.dispose(session);
        }
    }
}
