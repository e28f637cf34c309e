package dev.flow.internal;

import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * Flow's loggers: SLF4J when the application has an SLF4J provider, else {@link System.Logger}
 * (java.util.logging by default), so that Flow forces no binding on an application and its warnings
 * still reach it.
 *
 * <p>Without a provider SLF4J prints a "no providers" warning the first time anything (Flow, MINA,
 * JavaFlow) asks it for a logger. Flow asks first, from the classes every application starts with,
 * and, when no provider is there and the application has not set {@code slf4j.internal.verbosity}
 * itself, binds SLF4J to its no-operation fallback with that property at {@code ERROR} for the
 * moment of binding, then removes the property: SLF4J's own warnings are silenced only where
 * nothing could log them anyway. Under SLF4J 1.x's API (Maven 3 gives it to its plugins, whatever
 * version they depend on) Flow logs through SLF4J as bound there. Thread-safe.
 */
public final class Slf4j {

    private static final String VERBOSITY = "slf4j.internal.verbosity";
    /** Whether an SLF4J provider is on the class path (or named by {@code slf4j.provider}). */
    private static final boolean PROVIDED = bind();

    private Slf4j() {
    }

    /** Whether Flow logs through SLF4J (a provider is present). */
    public static boolean provided() {
        return PROVIDED;
    }

    /** The logger for {@code type}: SLF4J's if a provider is present, else one writing to {@link System.Logger}. */
    public static Logger logger(Class<?> type) {
        return PROVIDED ? LoggerFactory.getLogger(type) : new SystemLogger(type.getName());
    }

    private static boolean bind() {
        if (System.getProperty("slf4j.provider") != null) {
            return true;
        }
        boolean found;
        try {
            found = ServiceLoader.load(org.slf4j.spi.SLF4JServiceProvider.class, LoggerFactory.class.getClassLoader())
                    .stream().findAny().isPresent();
        } catch (java.util.ServiceConfigurationError e) {
            found = true; // a broken provider: let SLF4J report it
        } catch (NoClassDefFoundError e) {
            // SLF4J 1.x's API, as Maven 3 gives its plugins (the build-time route's goals run there): it binds
            // itself (org.slf4j.impl.StaticLoggerBinder) or falls back to no operation with its own warning.
            return true;
        }
        if (!found && System.getProperty(VERBOSITY) == null) {
            System.setProperty(VERBOSITY, "ERROR");
            try {
                LoggerFactory.getILoggerFactory();
            } finally {
                System.clearProperty(VERBOSITY);
            }
        }
        return found;
    }

    /** An SLF4J {@link Logger} writing to {@link System.Logger}; not an SLF4J provider. */
    private static final class SystemLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        private final transient System.Logger target;

        SystemLogger(String name) {
            this.name = name;
            this.target = System.getLogger(name);
        }

        @Override
        public boolean isTraceEnabled() {
            return target.isLoggable(System.Logger.Level.TRACE);
        }

        @Override
        public boolean isDebugEnabled() {
            return target.isLoggable(System.Logger.Level.DEBUG);
        }

        @Override
        public boolean isInfoEnabled() {
            return target.isLoggable(System.Logger.Level.INFO);
        }

        @Override
        public boolean isWarnEnabled() {
            return target.isLoggable(System.Logger.Level.WARNING);
        }

        @Override
        public boolean isErrorEnabled() {
            return target.isLoggable(System.Logger.Level.ERROR);
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                Throwable throwable) {
            String message = MessageFormatter.basicArrayFormat(pattern, arguments);
            System.Logger.Level l = System.Logger.Level.valueOf(level == Level.WARN ? "WARNING" : level.name());
            if (throwable != null) {
                target.log(l, message, throwable);
            } else {
                target.log(l, message);
            }
        }
    }
}
