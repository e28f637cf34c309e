package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.internal.Awaits;
import dev.flow.internal.Waits;
import dev.flow.spi.AwaitableAdapter;
import dev.flow.spi.SuspensionPoint;
import dev.flow.spi.SuspensionPointProvider;
import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.mina.core.future.DefaultConnectFuture;
import org.apache.mina.core.future.IoFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ServiceLoader services: the IoFuture adapter and the IoFuture suspension points. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class MinaServicesTest {

    @Test
    void theIoFutureAdapterIsRegisteredAndLetsFlowWaitOnMinaFutures() throws Exception {
        assertTrue(ServiceLoader.load(AwaitableAdapter.class).stream()
                .anyMatch(p -> p.type() == MinaIoFutureAdapter.class));
        MinaIoFutureAdapter adapter = new MinaIoFutureAdapter();
        assertEquals(IoFuture.class, adapter.type());

        DefaultConnectFuture f = new DefaultConnectFuture();
        assertFalse(Waits.isDone(f));
        assertFalse(Waits.block(f, TimeUnit.MILLISECONDS.toNanos(20)), "not done: the wait times out");
        assertFalse(Awaits.readyMillis(f, 20), "the replacement of await(long) times out too");
        CountDownLatch ran = new CountDownLatch(1);
        Waits.whenDone(f, ran::countDown);
        assertEquals(1, ran.getCount());

        f.setException(new IOException("refused"));
        assertEquals(0, ran.getCount(), "the action ran when the future completed");
        assertTrue(adapter.isDone(f));
        assertTrue(Waits.block(f, 0));
        assertTrue(Awaits.readyTimeout(f, 1, TimeUnit.SECONDS));
        CountDownLatch late = new CountDownLatch(1);
        adapter.whenDone(f, late::countDown);
        assertEquals(0, late.getCount(), "runs at once on a completed future");
    }

    @Test
    void theIoFutureAwaitFamilyTheSocketConstructorsTheDefaultSocketFactoriesAndTlsAreRegistered() {
        List<SuspensionPoint> points = ServiceLoader.load(SuspensionPointProvider.class).stream()
                .filter(p -> p.type() == MinaSuspensionPoints.class)
                .findFirst().orElseThrow().get().suspensionPoints();
        Set<String> described = points.stream().map(SuspensionPoint::toString).collect(Collectors.toSet());
        String f = "org/apache/mina/core/future/IoFuture";
        String awaits = "dev/flow/internal/Awaits";
        assertEquals(Set.of(
                f + ".await()L" + f + "; -> await receiver interruptibly",
                f + ".awaitUninterruptibly()L" + f + "; -> await receiver",
                f + ".join()V -> await receiver",
                f + ".await(J)Z -> " + awaits + ".readyMillisInterruptibly(Ljava/lang/Object;J)Z",
                f + ".awaitUninterruptibly(J)Z -> " + awaits + ".readyMillis(Ljava/lang/Object;J)Z",
                f + ".join(J)Z -> " + awaits + ".readyMillis(Ljava/lang/Object;J)Z",
                f + ".await(JLjava/util/concurrent/TimeUnit;)Z -> " + awaits
                        + ".readyTimeoutInterruptibly(Ljava/lang/Object;JLjava/util/concurrent/TimeUnit;)Z",
                f + ".awaitUninterruptibly(JLjava/util/concurrent/TimeUnit;)Z -> " + awaits
                        + ".readyTimeout(Ljava/lang/Object;JLjava/util/concurrent/TimeUnit;)Z",
                "java/net/Socket.<init>()V -> " + awaits + ".newSocket()Ljava/net/Socket;",
                "java/net/Socket.<init>(Ljava/lang/String;I)V -> " + awaits + ".newSocket(Ljava/lang/String;I)Ljava/net/Socket;",
                "java/net/Socket.<init>(Ljava/net/InetAddress;I)V -> " + awaits
                        + ".newSocket(Ljava/net/InetAddress;I)Ljava/net/Socket;",
                "java/net/Socket.<init>(Ljava/lang/String;ILjava/net/InetAddress;I)V -> " + awaits
                        + ".newSocket(Ljava/lang/String;ILjava/net/InetAddress;I)Ljava/net/Socket;",
                "java/net/Socket.<init>(Ljava/net/InetAddress;ILjava/net/InetAddress;I)V -> " + awaits
                        + ".newSocket(Ljava/net/InetAddress;ILjava/net/InetAddress;I)Ljava/net/Socket;",
                "javax/net/SocketFactory.getDefault()Ljavax/net/SocketFactory; -> " + awaits
                        + ".defaultSocketFactory()Ljavax/net/SocketFactory;",
                "javax/net/ssl/SSLContext.getSocketFactory()Ljavax/net/ssl/SSLSocketFactory; -> " + awaits
                        + ".tlsSocketFactory(Ljavax/net/ssl/SSLContext;)Ljavax/net/ssl/SSLSocketFactory;",
                "javax/net/ssl/SSLSocketFactory.getDefault()Ljavax/net/SocketFactory; -> " + awaits
                        + ".defaultTlsSocketFactory()Ljavax/net/SocketFactory;",
                "javax/net/ssl/SSLSocket.startHandshake()V -> " + awaits + ".startHandshake(Ljavax/net/ssl/SSLSocket;)V",
                "javax/net/ssl/SSLSocket.getSession()Ljavax/net/ssl/SSLSession; -> " + awaits
                        + ".tlsSession(Ljavax/net/ssl/SSLSocket;)Ljavax/net/ssl/SSLSession;"), described);
    }

    @Test
    void flowsSocketFactoryIsTheAsyncSocketFactoryService() {
        assertEquals(List.of(FlowSocketFactory.class), ServiceLoader.load(dev.flow.spi.AsyncSocketFactory.class).stream()
                .map(ServiceLoader.Provider::type).collect(Collectors.toList()));
    }

    @Test
    void everySuspensionPointNamesRealMethods() throws Exception {
        ClassLoader cl = getClass().getClassLoader();
        for (SuspensionPoint p : new MinaSuspensionPoints().suspensionPoints()) {
            Class<?> owner = Class.forName(p.owner().replace('/', '.'), false, cl);
            MethodType type = MethodType.fromMethodDescriptorString(p.descriptor(), cl);
            if (p.isConstructor()) {
                owner.getConstructor(type.parameterArray());
                Class<?> repl = Class.forName(p.replacementOwner().replace('/', '.'), false, cl);
                MethodType rt = MethodType.fromMethodDescriptorString(p.replacementDescriptor(), cl);
                Method r = repl.getMethod(p.replacementName(), rt.parameterArray());
                assertTrue(Modifier.isStatic(r.getModifiers()), r.toString());
                assertEquals(type.parameterList(), rt.parameterList(), "the constructor's arguments: " + p);
                assertEquals(owner, r.getReturnType(), r.toString());
                continue;
            }
            Method m = owner.getMethod(p.name(), type.parameterArray());
            assertEquals(type.returnType(), m.getReturnType(), p.toString());
            if (p.kind() == SuspensionPoint.Kind.STATIC_SUBSTITUTE) {
                assertTrue(Modifier.isStatic(m.getModifiers()), m.toString());
                Method r = Class.forName(p.replacementOwner().replace('/', '.'), false, cl)
                        .getMethod(p.replacementName(), type.parameterArray());
                assertTrue(Modifier.isStatic(r.getModifiers()), r.toString());
                assertEquals(type.returnType(), r.getReturnType(), r.toString());
            }
            if (p.kind() == SuspensionPoint.Kind.FINAL_SUBSTITUTE) {
                assertTrue(Modifier.isFinal(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()), m.toString());
            }
            if (p.kind() == SuspensionPoint.Kind.STATIC || p.kind() == SuspensionPoint.Kind.FINAL_SUBSTITUTE) {
                Class<?> repl = Class.forName(p.replacementOwner().replace('/', '.'), false, cl);
                MethodType rt = MethodType.fromMethodDescriptorString(p.replacementDescriptor(), cl);
                Method r = repl.getMethod(p.replacementName(), rt.parameterArray());
                assertTrue(Modifier.isStatic(r.getModifiers()), r.toString());
                assertEquals(rt.returnType(), r.getReturnType(), r.toString());
                assertTrue(rt.parameterType(0).isAssignableFrom(owner), "the receiver comes first: " + p);
                assertEquals(type.parameterList(), rt.parameterList().subList(1, rt.parameterCount()),
                        "then the original arguments: " + p);
                assertEquals(type.returnType(), rt.returnType(), p.toString());
            }
            assertNotNull(p.toString());
        }
    }
}
