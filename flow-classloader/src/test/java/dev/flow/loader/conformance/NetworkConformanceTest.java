package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * The JDK's network calls that wait inside the JDK, out of Flow's reach: connects and connecting
 * constructors of plain JDK sockets, URL connections other than local files, blocking channels' reads, writes,
 * connects and accepts, a {@code Scanner} over a socket. Each is reported at its call site and refused in strict
 * mode; their forms that provably do not wait (local URLs, non-blocking channels, a {@code Scanner} over a string)
 * are not. Name lookups (forward, reverse, the local host's, a socket address's) are suspension points: the same
 * results everywhere, strict included; a lookup of a name under a monitor pins, one of a literal does not; that a flow's lookups run on the lookup
 * threads is {@code NameLookupsTest}'s.
 */
class NetworkConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.network.";
        String blocking = "has no suspendable form";
        return Stream.of(
                Case.of(p + "SocketConnect").pins("SocketConnect.call()Ljava/lang/Object; (line 13): the call blocks its "
                        + "thread and " + blocking),
                Case.of(p + "SocketConnectTimed").pins(blocking),
                Case.of(p + "SocketConstructorConnects").pins("SocketConstructorConnects.call()Ljava/lang/Object; (line 13): "
                        + "the call blocks its thread and " + blocking),
                Case.of(p + "SocketConstructorByHostConnects").pins(blocking),
                Case.of(p + "JdkSocketFactoryConnects").pins(blocking),
                Case.of(p + "UnconnectedSocketsAreNotReported"),
                Case.of(p + "LookupByName"),
                Case.of(p + "LookupAllByName"),
                Case.of(p + "LookupLocalHost"),
                Case.of(p + "ReverseLookupHostName"),
                Case.of(p + "CanonicalHostName"),
                Case.of(p + "SocketAddressResolves"),
                Case.of(p + "SocketAddressReverseLookup"),
                Case.of(p + "UnknownNamesAreNotFound"),
                Case.of(p + "SocketAddressArgumentsAreChecked"),
                Case.of(p + "LookupInSynchronizedBlockPins").pins("a synchronized block holds a monitor"),
                Case.of(p + "LiteralLookupInSynchronizedBlock"),
                Case.of(p + "LiteralsAreNotLookedUp"),
                Case.of(p + "HttpUrlOpenStream").pins(blocking),
                Case.of(p + "HttpUrlConnectionResponseCode").pins(blocking),
                Case.of(p + "HttpUrlConnectionStreamRead").pins(blocking),
                Case.of(p + "LocalUrlsAreNotReported"),
                Case.of(p + "SocketChannelConnectBlocking").pins(blocking),
                Case.of(p + "SocketChannelOpenConnects").pins(blocking),
                Case.of(p + "SocketChannelFinishConnectBlocking").pins(blocking),
                Case.of(p + "SocketChannelReadBlocking").pins(blocking),
                Case.of(p + "SocketChannelWriteBlocking").pins(blocking),
                Case.of(p + "ServerSocketChannelAcceptBlocking").pins(blocking),
                Case.of(p + "DatagramChannelReceiveBlocking").pins(blocking),
                Case.of(p + "DatagramChannelSendBlocking").pins(blocking),
                Case.of(p + "PipeChannelBlocking").pins(blocking),
                Case.of(p + "NonBlockingChannelsAreNotReported"),
                Case.of(p + "ScannerOverJdkSocket").pins(blocking),
                Case.of(p + "ScannerOverReaderOverJdkSocket").pins("ScannerOverReaderOverJdkSocket.call()Ljava/lang/Object; (line 23): "
                        + "the call blocks its thread and " + blocking),
                Case.of(p + "ScannerOverStringIsNotReported"));
    }
}
