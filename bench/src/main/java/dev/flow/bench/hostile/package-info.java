/**
 * A good client's latency while hostile peers attack the HTTP sample (issue 14). See {@link
 * dev.flow.bench.hostile.HostileLatency}.
 */
package dev.flow.bench.hostile;
