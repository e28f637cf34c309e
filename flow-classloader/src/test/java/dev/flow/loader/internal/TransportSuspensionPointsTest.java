package dev.flow.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.Transport;
import dev.flow.internal.Awaits;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.objectweb.asm.Type;
import org.junit.jupiter.api.Test;

/**
 * Every blocking {@link Transport} method (one that declares {@link IOException}, but {@code close})
 * is a built-in suspension point replaced by an existing {@link Awaits} method, so that a new
 * transport read cannot be added without becoming a suspension point in loaded code.
 */
class TransportSuspensionPointsTest {

    @Test
    void everyBlockingTransportMethodIsReplacedByAnAwaitsForm() throws Exception {
        Set<String> builtins = BuiltinSuspensionPoints.builtins().stream()
                .filter(p -> p.owner().equals("dev/flow/Transport"))
                .map(p -> p.name() + p.descriptor() + " -> " + p.replacementName() + p.replacementDescriptor())
                .collect(Collectors.toSet());
        List<String> missing = new ArrayList<>();
        for (Method m : Transport.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getName().equals("close")
                    || !Arrays.asList(m.getExceptionTypes()).contains(IOException.class)) {
                continue;
            }
            String desc = Type.getMethodDescriptor(m);
            String replacement = "(Ldev/flow/Transport;" + desc.substring(1);
            String point = m.getName() + desc + " -> " + m.getName() + replacement;
            if (!builtins.contains(point)) {
                missing.add(point);
                continue;
            }
            Method form = Awaits.class.getMethod(m.getName(), prepend(m.getParameterTypes()));
            assertTrue(Modifier.isStatic(form.getModifiers()), form.toString());
            assertEquals(m.getReturnType(), form.getReturnType(), form.toString());
        }
        assertEquals(List.of(), missing, "blocking Transport methods that are not suspension points");
    }

    private static Class<?>[] prepend(Class<?>[] params) {
        Class<?>[] all = new Class<?>[params.length + 1];
        all[0] = Transport.class;
        System.arraycopy(params, 0, all, 1, params.length);
        return all;
    }
}
