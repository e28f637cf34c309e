/**
 * The load driver: a client JVM (closed or open loop, HdrHistogram percentiles, validity checks) and a
 * server JVM in each mode (sync, continuation policies, hand-written MINA, virtual threads), for the
 * line echo and the HTTP and RESP samples (or the plain HTTP and RESP handlers, {@code Handlers}); results as
 * CSV, Markdown and charts.
 */
package dev.flow.bench.load;
