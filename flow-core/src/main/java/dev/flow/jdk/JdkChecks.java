package dev.flow.jdk;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PushbackInputStream;
import java.io.Reader;
import java.io.Writer;

/**
 * Argument checks with the running JDK's own exceptions: where a substitute meets an invalid argument
 * it asks the JDK class it replaces to fail the same call, so the exception (type and message, which
 * changed between JDK releases) is the one the JDK throws. Called only on the failure path.
 */
final class JdkChecks {

    private JdkChecks() {
    }

    /** Whether {@code off}/{@code len} do not fit an array of {@code length}. */
    static boolean outOfBounds(int off, int len, int length) {
        return off < 0 || len < 0 || len > length - off;
    }

    /** Throws what {@code BufferedReader.read(cbuf, off, len)} throws for these arguments. */
    static IOException bufferedReaderRead(char[] cbuf, int off, int len) throws IOException {
        new BufferedReader(Reader.nullReader(), 1).read(cbuf, off, len);
        return new IOException("expected the JDK to refuse read(" + off + ", " + len + ")");
    }

    /** Throws what {@code InputStreamReader.read(cbuf, off, len)} throws for these arguments. */
    static IOException inputStreamReaderRead(char[] cbuf, int off, int len) throws IOException {
        new InputStreamReader(InputStream.nullInputStream()).read(cbuf, off, len);
        return new IOException("expected the JDK to refuse read(" + off + ", " + len + ")");
    }

    /** Throws what {@code BufferedWriter.write(cbuf, off, len)} throws for these arguments. */
    static IOException bufferedWriterWrite(char[] cbuf, int off, int len) throws IOException {
        new BufferedWriter(Writer.nullWriter(), 1).write(cbuf, off, len);
        return new IOException("expected the JDK to refuse write(" + off + ", " + len + ")");
    }

    /** Throws what {@code OutputStreamWriter.write(cbuf, off, len)} throws for these arguments. */
    static IOException outputStreamWriterWrite(char[] cbuf, int off, int len) throws IOException {
        new OutputStreamWriter(OutputStream.nullOutputStream()).write(cbuf, off, len);
        return new IOException("expected the JDK to refuse write(" + off + ", " + len + ")");
    }

    /** Throws what {@code BufferedInputStream.read(b, off, len)} throws for these arguments. */
    static IOException bufferedInputStreamRead(byte[] b, int off, int len) throws IOException {
        new BufferedInputStream(InputStream.nullInputStream(), 1).read(b, off, len);
        return new IOException("expected the JDK to refuse read(" + off + ", " + len + ")");
    }

    /** Throws what {@code PushbackInputStream.read(b, off, len)} throws for these arguments. */
    static IOException pushbackRead(byte[] b, int off, int len) throws IOException {
        new PushbackInputStream(InputStream.nullInputStream()).read(b, off, len);
        return new IOException("expected the JDK to refuse read(" + off + ", " + len + ")");
    }

    /** Throws what {@code FilterOutputStream.write(b, off, len)} throws for these arguments. */
    static IOException filterOutputStreamWrite(byte[] b, int off, int len) throws IOException {
        new FilterOutputStream(OutputStream.nullOutputStream()).write(b, off, len);
        return new IOException("expected the JDK to refuse write(" + off + ", " + len + ")");
    }

    /** Throws what {@code FilterOutputStream.write(b)} throws for a {@code null} array. */
    static IOException filterOutputStreamWrite(byte[] b) throws IOException {
        new FilterOutputStream(OutputStream.nullOutputStream()).write(b);
        return new IOException("expected the JDK to refuse write(" + b + ")");
    }
}
