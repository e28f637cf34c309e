package dev.flow.loader.internal;

import java.util.Set;

/** Internal names and descriptors the instrumentation refers to. */
final class Names {
    static final String CONTINUABLE = "Lorg/apache/commons/javaflow/api/continuable;";
    static final String AWAITS = "dev/flow/internal/Awaits";
    static final String PRIMITIVE_AWAITS = "dev/flow/internal/PrimitiveAwaits";
    static final String FLOW_ROOT = "dev/flow/internal/FlowRoot";
    static final String FLOW_TASK = "dev/flow/internal/FlowTask";
    static final String FLOW_STATE = "dev/flow/internal/FlowState";
    static final String PINS = "dev/flow/internal/Pins";
    static final String CLASS_INIT = "dev/flow/internal/ClassInit";
    /** Where instrumented code looks up the running continuation: {@code Engine.current()}. */
    static final String ENGINE = "dev/flow/internal/Engine";
    static final String STACK_RECORDER = "org/apache/commons/javaflow/core/StackRecorder";
    /** The descriptor of {@code StackRecorder.get()} and {@code Engine.current()}. */
    static final String RECORDER_LOOKUP_DESC = "()L" + STACK_RECORDER + ";";
    /** Flow classes every loader defines its own instrumented copy of. */
    static final Set<String> COPIED = Set.of(AWAITS, PRIMITIVE_AWAITS, FLOW_ROOT);
    static final String FLOW_SUFFIX = "$flow";
    static final String LAMBDA_INFIX = "$$FlowLambda$";

    private Names() {
    }

    static String key(String owner, String name, String desc) {
        return owner + '.' + name + desc;
    }
}
