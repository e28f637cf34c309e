package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * JDK decorators around a transport's stream views. Every decorator made by loaded code ({@code
 * BufferedReader}, {@code InputStreamReader}, {@code LineNumberReader}, {@code BufferedWriter}, {@code
 * OutputStreamWriter}, {@code PrintWriter}, {@code BufferedInputStream}, {@code PushbackInputStream},
 * {@code DataInputStream}, {@code BufferedOutputStream}, {@code DataOutputStream}, {@code PrintStream},
 * and in-scope subclasses, also locking {@code lock}) suspends with results identical to the JDK's,
 * byte for byte; a {@code DataInputStream} made outside the scope reads as the JDK's. {@code
 * transferTo} of the view itself calls the view through an uninstrumented frame: a pinned site that a
 * strict loader refuses by site (whether or not the call would wait), naming the method as written
 * ({@code call}, not {@code call$flow}). A {@code Scanner} made over a view, or over Flow's decorators over one,
 * reads it inside the JDK's frames: it is reported where it is made; one over memory or a file is not.
 */
class DecoratorsConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.decorators.";
        String blocking = "the call blocks its thread and has no suspendable form";
        return Stream.of(
                Case.of(p + "DataInputOverView"),
                Case.of(p + "DataOutputOverView"),
                Case.of(p + "ForeignDataOutputOverView").suspends(),
                Case.of(p + "ForeignDataReadLineOverView").pins("ForeignDataReadLineOverView.call()Ljava/lang/Object; (line 21): "
                        + "the call blocks its thread and has no suspendable form"),
                Case.of(p + "InputStreamBattery").suspends(),
                Case.of(p + "OutputStreamBattery"),
                Case.of(p + "PrintBattery").suspends(),
                Case.of(p + "FilterOutputSubclass").suspends(),
                Case.of(p + "ReaderOverView").suspends(),
                Case.of(p + "ReaderBattery").suspends(),
                Case.of(p + "WriterBattery"),
                Case.of(p + "SubclassesLockingLock").suspends(),
                Case.of(p + "DirectSubclassesLockingLock").suspends(),
                Case.of(p + "TransferToFromView").pins("TransferToFromView.call()Ljava/lang/Object; (line 16)"),
                Case.of(p + "ViewCalledDirectly").suspends(),
                Case.of(p + "ReaderCharBufferReads").suspends(),
                Case.of(p + "ScannerOverView").pins("ScannerOverView.call()Ljava/lang/Object; (line 17): " + blocking),
                Case.of(p + "ScannerOverReaderOverView").pins("ScannerOverReaderOverView.call()Ljava/lang/Object; (line 21): "
                        + blocking),
                Case.of(p + "ScannerOverStreamOverView").pins("ScannerOverStreamOverView.call()Ljava/lang/Object; (line 22): "
                        + blocking),
                Case.of(p + "ScannerOverMemoryIsNotReported"));
    }
}
