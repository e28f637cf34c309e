package dev.flow.mina;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.service.IoService;
import org.apache.mina.core.service.IoServiceStatistics;

/**
 * Turns off MINA's service-wide statistics ({@link IoService#getStatistics()}: bytes, messages and throughput
 * of all sessions together) on the services Flow builds. MINA updates them under one lock per service on every
 * read, on every write and on every received and sent message: the I/O threads and the workers that write
 * straight to the socket ({@link DirectWriter}) then contend for that one lock on every request, and Flow
 * reads none of them. Each session's own counters ({@code IoSession.getReadBytes()}, last read and write
 * times, idle detection) are kept: MINA updates them outside that lock.
 *
 * <p>MINA has no public switch: its private {@code IoServiceStatistics.config} holds one. If it cannot be
 * reached (a MINA that renamed it), the statistics stay on, which only costs that lock, and a warning is
 * logged once per process.
 *
 * <p>Thread model: {@link #disable} is called while a service is built, before it has sessions.
 */
final class ServiceStatistics {

    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private ServiceStatistics() {
    }

    /** Turns off {@code service}'s service-wide statistics; returns whether they are off. */
    static boolean disable(IoService service) {
        IoServiceStatistics stats = service.getStatistics();
        try {
            Field f = IoServiceStatistics.class.getDeclaredField("config");
            f.setAccessible(true);
            ((IoServiceStatistics.Config) f.get(stats)).setStatisticsCalcEnabled(false);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (WARNED.compareAndSet(false, true)) {
                EventLog.warn(dev.flow.internal.Slf4j.logger(ServiceStatistics.class),
                        System.getLogger(ServiceStatistics.class.getName()),
                        "MINA's IoServiceStatistics.config could not be reached (" + e + "): the service-wide"
                                + " statistics stay on, updated under one lock per service on every read and write");
            }
            return false;
        }
    }
}
