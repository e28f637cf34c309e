/**
 * Flow over Apache MINA: {@link dev.flow.mina.MinaTransport}, a {@link dev.flow.Transport} over an
 * {@code IoSession}; {@link dev.flow.mina.FlowServer}, which runs one handler per accepted TCP or in-VM
 * session, as a flow (continuation mode) or on a thread of its own (sync mode), with TLS, MINA filters,
 * a session limit and {@link dev.flow.mina.SessionStats}; {@link dev.flow.mina.FlowConnector}, which
 * opens client transports and runs client flows; and the services that
 * let flows wait on MINA futures ({@link dev.flow.mina.MinaIoFutureAdapter}) and make
 * {@code IoFuture.await*()} calls suspension points ({@link dev.flow.mina.MinaSuspensionPoints}); and
 * {@code java.net.Socket}s over MINA ({@link dev.flow.mina.FlowSocketFactory}), with the TLS that loaded code
 * layers over them its own way ({@code sslContext.getSocketFactory().createSocket(socket, host, port, autoClose)})
 * done by MINA's TLS filter, so that it suspends too.
 *
 * <p>Thread model: MINA's I/O threads move bytes into transport buffers and complete awaitables; flow
 * code runs on {@link dev.flow.FlowScheduler} workers (or on a session's or the caller's thread in sync
 * use), except where the {@link dev.flow.mina.Dispatch} lets a flow woken by its own input resume on the
 * I/O processor thread that read it: always with {@code IO_THREADS} (a wait there that cannot suspend is
 * refused), and with {@code ADAPTIVE}, the default of servers and connectors, only for flows whose runs
 * are short and that never blocked in a pinned wait (should one block there, the I/O thread hands its
 * other sessions to another thread meanwhile). A connector's I/O threads resume the flows of every scheduler, each on its
 * own scheduler's behalf.
 */
package dev.flow.mina;
