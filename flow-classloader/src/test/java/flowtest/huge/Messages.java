package flowtest.huge;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A message loop of the shape of pgjdbc's {@code QueryExecutorImpl.processResults}: one method, a switch
 * over message kinds, a blocking read in every branch, a dozen locals of every kind live across the reads
 * and a few that only some branches have. Small as compiled; instrumented, the engine's capture and
 * restore code take it past HotSpot's 8,000-byte limit for compiled methods. Every read sleeps for a
 * millisecond (a suspension point), and so does one branch itself. {@link #call()} runs the script of message kinds and returns a digest of
 * every local, so any value lost or mixed up across a suspension changes it.
 */
public final class Messages implements Callable<Object> {

    /** Message kinds 0 to {@value #KINDS} - 1, each once, then some again. */
    public static final int KINDS = 36;

    private final int[] script;
    private int sleeps;

    /** A loop over {@code script}, message kinds from 0 to {@value #KINDS} - 1. */
    public Messages(int[] script) {
        this.script = script.clone();
    }

    /** Every kind once in order, then every third kind again. */
    public static int[] everyKind() {
        int[] s = new int[KINDS + KINDS / 3];
        for (int k = 0; k < KINDS; k++) {
            s[k] = k;
        }
        for (int k = 0; k < KINDS / 3; k++) {
            s[KINDS + k] = 3 * k + 1;
        }
        return s;
    }

    /** How many times the last {@link #call()} slept: one suspension each in a flow. */
    public int sleeps() {
        return sleeps;
    }

    @Override
    public Object call() throws InterruptedException {
        sleeps = 0;
        return loop(script);
    }

    private int read(int x) throws InterruptedException {
        sleeps++;
        Thread.sleep(1);
        return x * 7 + 1;
    }

    private long readLong(long x) throws InterruptedException {
        return read((int) x) * 1_000_003L + x;
    }

    private double half(double x) throws InterruptedException {
        sleeps++;
        Thread.sleep(1);
        return x / 2;
    }

    private String readText(int x) throws InterruptedException {
        return "t" + read(x);
    }

    long loop(int[] kinds) throws InterruptedException {
        int count = 0;
        long total = 7;
        float ratio = 1.5f;
        double mean = 0.25;
        String last = "";
        StringBuilder log = new StringBuilder();
        List<String> names = new ArrayList<>();
        boolean seen = false;
        char tag = 'a';
        short small = 3;
        byte octet = 1;
        int[] histogram = new int[8];
        long[] marks = new long[2];
        for (int pc = 0; pc < kinds.length; pc++) {
            int kind = kinds[pc];
            histogram[kind & 7]++;
            switch (kind) {
                case 0: count += read(kind); break;
                case 1: total = total * 31 + readLong(count); break;
                case 2: {
                    long before = total;
                    ratio = ratio * 0.5f + read(pc);
                    total ^= before;
                    break;
                }
                case 3: mean += half(ratio); break;
                case 4: last = last + readText(pc); break;
                case 5: {
                    String s = last;
                    int n = read(s.length());
                    names.add(s + n);
                    break;
                }
                case 6: log.append(read(count)).append(','); break;
                case 7: seen = read(pc) % 2 == 0; break;
                case 8: tag = (char) ('a' + read(pc) % 26); break;
                case 9: small = (short) (small + read(small)); break;
                case 10: octet = (byte) (octet ^ read(octet)); break;
                case 11: histogram[read(pc) & 7] += 3; break;
                case 12: marks[0] = readLong(marks[1]) - total; break;
                case 13: {
                    double d = mean * 3;
                    float f = ratio - 1;
                    mean = d + half(f) + f;
                    break;
                }
                case 14: count = count * 3 + read(count) + (seen ? 1 : 0); break;
                case 15: total = total - readLong(total & 0xFF) * count; break;
                case 16: names.add(readText(names.size())); break;
                case 17: last = names.isEmpty() ? readText(0) : names.get(0) + readText(1); break;
                case 18: ratio = ratio + read(tag) / 10f; break;
                case 19:
                    sleeps++;
                    Thread.sleep(1);
                    mean = mean * 2 - half(mean);
                    break;
                case 20: log.insert(0, readText(octet)); break;
                case 21: {
                    int[] copy = histogram.clone();
                    copy[1] = read(copy[0]);
                    histogram = copy;
                    break;
                }
                case 22: marks[1] += readLong(small); break;
                case 23: tag = Character.toUpperCase((char) (tag + read(0) % 3)); break;
                case 24: seen = !seen && read(count) > 0; break;
                case 25: small = (short) read(small * 2); break;
                case 26: count = read(count) - count; break;
                case 27: total = readLong(total % 1000) ^ total; break;
                case 28: last = last.length() > 20 ? readText(count) : last + readText(2); break;
                case 29: {
                    long a = marks[0];
                    long b = marks[1];
                    marks[0] = b + readLong(a & 0xF);
                    break;
                }
                case 30: octet = (byte) read(octet + histogram[2]); break;
                case 31: mean = Math.max(mean, half(count)); break;
                case 32: ratio = ratio / 2 + (float) half(ratio); break;
                case 33: log.append(readText(small)); break;
                case 34: names.add(0, last + read(names.size())); break;
                case 35: count += read(tag) + read(octet); break;
                default: throw new IllegalArgumentException("kind: " + kind + " (expected: 0 to " + (KINDS - 1) + ")");
            }
        }
        long digest = count;
        digest = digest * 31 + total;
        digest = digest * 31 + Float.floatToIntBits(ratio);
        digest = digest * 31 + Double.doubleToLongBits(mean);
        digest = digest * 31 + last.hashCode();
        digest = digest * 31 + log.toString().hashCode();
        digest = digest * 31 + names.hashCode();
        digest = digest * 31 + (seen ? 1 : 0);
        digest = digest * 31 + tag + small + octet;
        digest = digest * 31 + java.util.Arrays.hashCode(histogram);
        digest = digest * 31 + java.util.Arrays.hashCode(marks);
        return digest;
    }
}
