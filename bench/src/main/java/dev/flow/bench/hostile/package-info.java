/**
 * A good client's latency while hostile peers attack the HTTP sample (issue 14), and where a good
 * request's time goes under a reset flood. See {@link dev.flow.bench.hostile.HostileLatency} and {@link
 * dev.flow.bench.hostile.LatencyProbe}.
 */
package dev.flow.bench.hostile;
