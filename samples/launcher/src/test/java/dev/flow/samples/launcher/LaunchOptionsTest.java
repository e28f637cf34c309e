package dev.flow.samples.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.mina.Dispatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LaunchOptions}: the loader route's strictness and the dispatch, their defaults and their errors. */
class LaunchOptionsTest {

    @Test
    void theLoaderRouteLoadsStrictWithTheAdaptiveDispatchByDefault() {
        LaunchOptions o = LaunchOptions.parse(List.of());
        assertTrue(o.strict());
        assertEquals(Dispatch.ADAPTIVE, o.dispatch());
    }

    @Test
    void strictFalseLoadsLenient() {
        assertFalse(LaunchOptions.parse(List.of(), "--strict", "false").strict());
        assertTrue(LaunchOptions.parse(List.of(), "--strict=true").strict());
    }

    @Test
    void strictTakesTrueOrFalseOnly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LaunchOptions.parse(List.of(), "--strict", "yes"));
        assertEquals("--strict: yes (expected: true or false)", e.getMessage());
    }

    @Test
    void syncModeRefusesStrict() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LaunchOptions.parse(List.of(), "--mode", "sync", "--strict", "false"));
        assertEquals("--strict: false (expected: only with --mode continuation; sync mode runs one thread per session,"
                + " see --max-sessions)", e.getMessage());
    }
}
