package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Objects;
import org.apache.commons.javaflow.core.StackRecorder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link StackTrimmer}: a stack packed and lent back comes out value for value, and the spare arrays a
 * thread keeps between flows never hold a reference of a flow.
 */
class StackTrimmerTest {

    @BeforeAll
    static void engineFieldsFound() {
        assertTrue(StackTrimmer.available(), "the engine's stack fields were not found");
    }

    /** A continuation with {@code frames} frames' worth of every kind of value recorded, as a capture leaves it. */
    private static StackRecorder captured(StackTrimmer.Spare spare, int frames, Object[] payloads) {
        StackRecorder s = StackTrimmer.fresh(null);
        StackTrimmer.lend(s, spare);
        for (int i = 0; i < frames; i++) {
            s.pushInt(-i);
            s.pushLong(Long.MIN_VALUE + i);
            s.pushDouble(i * 1.5e300);
            s.pushFloat(-i / 3f);
            s.pushObject(payloads[i]);
            s.pushReference(payloads[i]);
        }
        return s;
    }

    /** Pops what {@link #captured} pushed, checking every value, as a restore does. */
    private static void assertRestores(StackRecorder s, int frames, Object[] payloads) {
        for (int i = frames - 1; i >= 0; i--) {
            assertSame(payloads[i], s.popReference(), "reference " + i);
            assertSame(payloads[i], s.popObject(), "object " + i);
            assertEquals(-i / 3f, s.popFloat(), "float " + i);
            assertEquals(i * 1.5e300, s.popDouble(), "double " + i);
            assertEquals(Long.MIN_VALUE + i, s.popLong(), "long " + i);
            assertEquals(-i, s.popInt(), "int " + i);
        }
        assertTrue(!s.hasInt() && !s.hasLong() && !s.hasFloat() && !s.hasDouble() && !s.hasObject() && !s.hasReference(),
                "values left after the restore");
    }

    private static Object[] payloads(int n) {
        Object[] p = new Object[n];
        for (int i = 0; i < n; i++) {
            p[i] = new Object();
        }
        return p;
    }

    private static void assertHoldsNoReference(Object[] a) {
        assertTrue(Arrays.stream(a).allMatch(Objects::isNull), "a spare array holds references: " + Arrays.toString(a));
    }

    @Test
    void aPackedStackIsUnpackedIntoTheSpareArraysValueForValue() {
        StackTrimmer.Spare spare = new StackTrimmer.Spare();
        Object[] payloads = payloads(3);
        StackRecorder s = captured(spare, 3, payloads);
        StackTrimmer.pack(s, spare);
        StackTrimmer.lend(s, spare);
        assertRestores(s, 3, payloads);
    }

    @Test
    void packingGivesTheEngineArraysBackEmpty() {
        StackTrimmer.Spare spare = new StackTrimmer.Spare();
        StackRecorder s = captured(spare, 4, payloads(4));
        StackTrimmer.pack(s, spare);
        assertHoldsNoReference(spare.objects(0));
        assertHoldsNoReference(spare.references(0));
    }

    @Test
    void aResumptionReusesTheArraysAnotherFlowGaveBack() {
        StackTrimmer.Spare spare = new StackTrimmer.Spare();
        StackRecorder first = captured(spare, 2, payloads(2));
        StackTrimmer.pack(first, spare);
        Object[] objects = spare.objects(0);
        Object[] references = spare.references(0);
        long[] primitives = spare.primitives(0);
        spare.offer(primitives, objects, references);
        StackTrimmer.lend(first, spare);
        assertSame(objects, StackTrimmer.objectStack(first), "object stack");
        assertSame(references, StackTrimmer.referenceStack(first), "reference stack");
        assertSame(primitives, StackTrimmer.primitiveStack(first), "primitive stack");
    }

    @Test
    void aStackDeeperThanTheSpareArraysComesBackWhole() {
        StackTrimmer.Spare spare = new StackTrimmer.Spare();
        StackTrimmer.pack(captured(spare, 1, payloads(1)), spare);
        int frames = StackTrimmer.MAX_SPARE_LENGTH;
        Object[] payloads = payloads(frames);
        StackRecorder deep = captured(spare, frames, payloads);
        StackTrimmer.pack(deep, spare);
        StackTrimmer.lend(deep, spare);
        assertRestores(deep, frames, payloads);
    }

    @Test
    void arraysLongerThanTheLimitAreNotKept() {
        StackTrimmer.Spare spare = new StackTrimmer.Spare();
        int frames = StackTrimmer.MAX_SPARE_LENGTH + 1;
        StackRecorder deep = captured(spare, frames, payloads(frames));
        Object[] grown = StackTrimmer.objectStack(deep);
        StackTrimmer.pack(deep, spare);
        assertNotSame(grown, spare.objects(0), "an object stack of " + grown.length + " kept");
    }

    @Test
    void anEndedContinuationGivesItsArraysBackOnlyIfEmpty() {
        StackTrimmer.Spare spare = new StackTrimmer.Spare();
        Object[] payloads = payloads(2);
        StackRecorder ended = captured(spare, 2, payloads);
        Object[] objects = StackTrimmer.objectStack(ended);
        assertRestores(ended, 2, payloads);
        StackTrimmer.reclaim(ended, spare);
        assertSame(objects, spare.objects(0), "the emptied object stack is not the spare one");

        StackRecorder halfWay = captured(spare, 2, payloads);
        Object[] dirty = StackTrimmer.objectStack(halfWay);
        StackTrimmer.reclaim(halfWay, spare);
        assertNotSame(dirty, spare.objects(0), "an object stack still holding values was kept");
    }
}
