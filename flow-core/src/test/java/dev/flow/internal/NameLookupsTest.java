package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The lookup threads: a resolver that hangs on a few names does not hold back the lookups of others. */
class NameLookupsTest {

    @Test
    void lookupsThatHangDoNotHoldBackALookupMadeAfterThem() throws Exception {
        CountDownLatch resolver = new CountDownLatch(1);
        List<CompletableFuture<Object>> hung = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                hung.add(NameLookups.submit(() -> {
                    try {
                        resolver.await(); // a resolver that does not answer
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return "late";
                }));
            }
            CompletableFuture<InetAddress> next = NameLookups.byName("localhost");
            InetAddress found = next.get(10, TimeUnit.SECONDS);
            assertTrue(found.isLoopbackAddress(), found.toString());
            assertTrue(hung.stream().noneMatch(CompletableFuture::isDone), "the hung lookups still wait");
        } finally {
            resolver.countDown();
        }
        for (CompletableFuture<Object> h : hung) {
            h.get(10, TimeUnit.SECONDS);
        }
    }
}
