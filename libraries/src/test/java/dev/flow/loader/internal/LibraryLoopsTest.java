package dev.flow.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * {@link ReducibleLoops} on real libraries: every instrumented method of their jars, as the loader defines it, enters
 * its loops through their headers, but for the few it leaves as the engine wrote them, named here (pgjdbc's
 * authentication and three metadata queries, OkHttp's DNS writer and okio's recursive listing, all too large or of
 * a shape it does not rewrite). The engine alone entered such loops in the middle in 118 of pgjdbc's methods, 193 of
 * Jedis', 154 of HttpClient 5's, 38 of Commons Net's and 233 of OkHttp's and okio's.
 */
class LibraryLoopsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "org.postgresql | org/postgresql/core/v3/ConnectionFactoryImpl.doAuthentication"
            + " org/postgresql/jdbc/PgDatabaseMetaData.getColumns$flow org/postgresql/jdbc/PgDatabaseMetaData.getFunctionColumns$flow"
            + " org/postgresql/jdbc/PgDatabaseMetaData.getProcedureColumns$flow",
        "redis.clients.jedis | ",
        "org.apache.hc.client5 org.apache.hc.core5 | ",
        "org.apache.commons.net | ",
        "okhttp3 okio | okhttp3/internal/dns/DnsMessageWriter.writeHttps okio/internal/-FileSystem.collectRecursively"
            + " okio/internal/-FileSystem$commonListRecursively$1.invokeSuspend$flow"})
    void everyInstrumentedMethodEntersItsLoopsThroughTheirHeadersButTheOnesNamed(String packages, String named) {
        ClassLoader source = LibraryLoopsTest.class.getClassLoader();
        List<String> included = List.of(packages.split(" "));
        Scope scope = Scope.analyse(source, included, List.of(), List.of(), false, new Object());
        int instrumented = 0;
        Set<String> entered = new TreeSet<>();
        for (String name : Instrumenter.scan(source, included, List.of())) {
            byte[] b = scope.bytes(name);
            if (b == null) {
                continue;
            }
            ClassNode cn = new ClassNode();
            new ClassReader(b).accept(cn, 0);
            for (MethodNode m : cn.methods) {
                if (instrumented(m)) {
                    instrumented++;
                    if (!ReducibleLoops.singleEntryLoops(m)) {
                        entered.add(name + "." + m.name);
                    }
                }
            }
        }
        assertTrue(instrumented > 500, "instrumented methods: " + instrumented);
        Set<String> expected = named == null ? Set.of() : new TreeSet<>(List.of(named.trim().split(" ")));
        assertEquals(expected, entered);
    }

    private static boolean instrumented(MethodNode m) {
        for (org.objectweb.asm.tree.AbstractInsnNode i : m.instructions) {
            if (i instanceof MethodInsnNode && ((MethodInsnNode) i).owner.equals(Names.ENGINE) && ((MethodInsnNode) i).name.equals("current")) {
                return true;
            }
        }
        return false;
    }
}
