package flowtest.conformance.supercalls;

import flowtest.support.Async;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Callable;

/**
 * Subclasses of {@code CompletableFuture}, {@code LinkedBlockingQueue}, {@code Semaphore} and {@code
 * CountDownLatch} whose blocking methods call {@code super}; nothing has to wait, so each call
 * returns at once.
 */
public final class FuturesAndQueuesCallSuper implements Callable<Object> {

    static final class Labelled extends CompletableFuture<String> {
        @Override
        public String get() throws InterruptedException, ExecutionException {
            return "<" + super.get() + ">";
        }

        @Override
        public String get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            return "{" + super.get(timeout, unit) + "}";
        }

        @Override
        public String join() {
            return "|" + super.join() + "|";
        }
    }

    static final class Queue extends LinkedBlockingQueue<String> {
        @Override
        public String take() throws InterruptedException {
            return "t:" + super.take();
        }

        @Override
        public void put(String e) throws InterruptedException {
            super.put("p:" + e);
        }

        @Override
        public String poll(long timeout, TimeUnit unit) throws InterruptedException {
            return "q:" + super.poll(timeout, unit);
        }
    }

    static final class Permits extends Semaphore {
        Permits() {
            super(3);
        }

        @Override
        public void acquire() throws InterruptedException {
            super.acquire();
            super.acquire();
        }

        @Override
        public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
            return super.tryAcquire(timeout, unit);
        }
    }

    static final class Latch extends CountDownLatch {
        Latch() {
            super(0);
        }

        @Override
        public void await() throws InterruptedException {
            super.await();
        }
    }

    @Override
    public Object call() throws Exception {
        String first = Async.later("go").get();
        Labelled f = new Labelled();
        f.complete(first);
        StringBuilder out = new StringBuilder(f.get()).append(f.get(1, TimeUnit.SECONDS)).append(f.join()).append(';');
        Queue q = new Queue();
        q.put("a");
        q.put("b");
        out.append(q.take()).append(',').append(q.poll(1, TimeUnit.SECONDS)).append(';');
        Permits s = new Permits();
        s.acquire();
        out.append(s.availablePermits()).append(',').append(s.tryAcquire(1, TimeUnit.SECONDS)).append(',')
                .append(s.tryAcquire(1, TimeUnit.MILLISECONDS)).append(';');
        new Latch().await();
        return out.append("latched").toString();
    }
}
