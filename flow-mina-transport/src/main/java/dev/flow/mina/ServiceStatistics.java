package dev.flow.mina;

import org.apache.mina.core.service.IoService;

/**
 * Turns off MINA's service-wide statistics ({@link IoService#getStatistics()}: bytes, messages and throughput
 * of all sessions together) on the services Flow builds. MINA updates them under one lock per service on every
 * read, on every write and on every received and sent message: the I/O threads and the workers that write
 * straight to the socket ({@link DirectWriter}) then contend for that one lock on every request, and Flow
 * reads none of them. Each session's own counters ({@code IoSession.getReadBytes()}, last read and write
 * times, idle detection) are kept: MINA updates them outside that lock.
 *
 * <p>The switch is MINA's own {@code IoServiceStatistics.Config} (public since MINA 2.2.0, DIRMINA-1152).
 *
 * <p>Thread model: {@link #disable} is called while a service is built, before it has sessions.
 */
final class ServiceStatistics {

    private ServiceStatistics() {
    }

    /** Turns off {@code service}'s service-wide statistics. */
    static void disable(IoService service) {
        service.getStatistics().getConfig().setStatisticsCalcEnabled(false);
    }
}
