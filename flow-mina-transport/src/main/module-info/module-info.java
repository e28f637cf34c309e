/**
 * Flow over Apache MINA (the automatic module {@code org.apache.mina.core}): the transport, the future bridge and
 * blocking-style servers and clients.
 */
module dev.flow.mina {
    requires transitive dev.flow.core;
    requires transitive org.apache.mina.core;
    requires org.slf4j;
    requires jdk.management;

    exports dev.flow.mina;

    provides dev.flow.spi.AwaitableAdapter with dev.flow.mina.MinaIoFutureAdapter;
    provides dev.flow.spi.SuspensionPointProvider with dev.flow.mina.MinaSuspensionPoints;
}
