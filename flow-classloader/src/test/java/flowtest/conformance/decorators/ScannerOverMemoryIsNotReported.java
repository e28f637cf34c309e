package flowtest.conformance.decorators;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.LineNumberReader;
import java.io.PushbackInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Scanner;
import java.util.concurrent.Callable;

/**
 * {@code Scanner}s over sources that never wait for a peer: a string, a {@code ByteArrayInputStream}, a {@code
 * StringReader}, a file (by name and by stream), and the decorators this code made (Flow's) over memory. None is
 * reported, strict mode included.
 */
public final class ScannerOverMemoryIsNotReported implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String text = "one 2\nthree";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        out.append(first(new Scanner(text)));
        out.append(first(new Scanner(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8)));
        out.append(first(new Scanner(new StringReader(text))));
        out.append(first(new Scanner(new InputStreamReader(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8))));
        out.append(first(new Scanner(new LineNumberReader(new BufferedReader(new StringReader(text))))));
        out.append(first(new Scanner(new DataInputStream(new PushbackInputStream(
                new BufferedInputStream(new ByteArrayInputStream(bytes)))), StandardCharsets.UTF_8)));
        File f = File.createTempFile("scanner", ".txt");
        try {
            Files.write(f.toPath(), bytes);
            out.append(first(new Scanner(f, StandardCharsets.UTF_8)));
            try (FileInputStream in = new FileInputStream(f)) {
                out.append(first(new Scanner(in, StandardCharsets.UTF_8)));
            }
        } finally {
            Files.delete(f.toPath());
        }
        return out.toString();
    }

    private static String first(Scanner s) {
        return s.next() + s.nextInt() + s.hasNextLine() + s.nextLine() + s.nextLine() + ";";
    }
}
