package dev.flow.spi;

import java.util.Objects;

/**
 * A blocking method that the {@code ContinuationClassLoader} turns into a suspension point.
 *
 * <p>A call site matches when the method name and parameter types are equal and the call's owner is
 * {@link #owner()} or one of its subtypes (return types are ignored, so covariant overrides such as
 * MINA's {@code ConnectFuture.await()} match too). A matching call is rewritten as described by its
 * {@link Kind}.
 */
public final class SuspensionPoint {

    /** How a matching call site is rewritten. */
    public enum Kind {
        /**
         * The receiver is a future-like object with an {@link AwaitableAdapter}: the flow waits
         * until it is done, then the original call runs (and returns at once). Only for methods
         * without parameters.
         */
        AWAIT_RECEIVER,
        /**
         * Like {@link #AWAIT_RECEIVER}, for a method that throws {@link InterruptedException} (e.g.
         * {@code IoFuture.await()}): with the flow's interrupt status set, the flow does not suspend
         * and the original call runs at once (and throws as on a plain thread).
         */
        AWAIT_RECEIVER_INTERRUPTIBLY,
        /**
         * The call is replaced by a static call to {@link #replacementOwner()}.{@link
         * #replacementName()}, taking the receiver (for instance methods) followed by the
         * original arguments. The replacement must be suspendable: Flow's own, or in a package the
         * class loader includes.
         */
        STATIC,
        /**
         * An allocation and its constructor call ({@code new T(args)}) are replaced by a static call to {@link
         * #replacementOwner()}.{@link #replacementName()} taking the constructor's arguments and returning the
         * object: for constructors that wait (a socket's that connects), since a constructor cannot suspend. Only
         * the allocations loaded code makes itself, outside static initializers; a subclass's {@code super(...)}
         * call stays, and so do the replacement's own allocations.
         */
        CONSTRUCTOR,
        /**
         * Like {@link #CONSTRUCTOR}, for a replacement that never waits (it only chooses what to build): its call is
         * not a suspension point, so it may run where a flow cannot suspend (constructors, static initializers).
         */
        CONSTRUCTOR_SUBSTITUTE,
        /**
         * A static method replaced by a static method of the same descriptor that never waits (it only chooses what
         * to return): no suspension point, so it may run anywhere. A call through a subclass that declares its own
         * static of the same name and descriptor calls that one and stays.
         */
        STATIC_SUBSTITUTE,
        /**
         * A {@code final} instance method replaced by a static method that never waits, taking the receiver followed
         * by the original arguments: no suspension point, so it may run anywhere. Calls through subclasses match too
         * (a final method cannot be overridden); a loader refuses the point if the method is not final.
         */
        FINAL_SUBSTITUTE
    }

    private final String owner;
    private final String name;
    private final String descriptor;
    private final Kind kind;
    private final String replacementOwner;
    private final String replacementName;
    private final String replacementDescriptor;

    private SuspensionPoint(String owner, String name, String descriptor, Kind kind,
                            String replacementOwner, String replacementName, String replacementDescriptor) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.name = Objects.requireNonNull(name, "name");
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.kind = kind;
        this.replacementOwner = replacementOwner;
        this.replacementName = replacementName;
        this.replacementDescriptor = replacementDescriptor;
    }

    /**
     * A parameterless method of a future-like type: await the receiver, then call the original.
     *
     * @param owner internal name of the declaring type, e.g. {@code java/util/concurrent/Future}
     * @param name method name, e.g. {@code get}
     * @param descriptor method descriptor, e.g. {@code ()Ljava/lang/Object;}
     */
    public static SuspensionPoint awaitReceiver(String owner, String name, String descriptor) {
        checkNoParameters(descriptor);
        return new SuspensionPoint(owner, name, descriptor, Kind.AWAIT_RECEIVER, null, null, null);
    }

    private static void checkNoParameters(String descriptor) {
        if (!descriptor.startsWith("()")) {
            throw new IllegalArgumentException("descriptor: " + descriptor + " (expected: no parameters for AWAIT_RECEIVER)");
        }
    }

    /**
     * An interruptible parameterless method of a future-like type (see {@link
     * Kind#AWAIT_RECEIVER_INTERRUPTIBLY}): await the receiver, then call the original.
     */
    public static SuspensionPoint awaitReceiverInterruptibly(String owner, String name, String descriptor) {
        checkNoParameters(descriptor);
        return new SuspensionPoint(owner, name, descriptor, Kind.AWAIT_RECEIVER_INTERRUPTIBLY, null, null, null);
    }

    /**
     * A method replaced by a static method taking the receiver (unless the method is static) and
     * the original arguments.
     */
    public static SuspensionPoint replaceWithStatic(String owner, String name, String descriptor,
                                                    String replacementOwner, String replacementName,
                                                    String replacementDescriptor) {
        Objects.requireNonNull(replacementOwner, "replacementOwner");
        Objects.requireNonNull(replacementName, "replacementName");
        Objects.requireNonNull(replacementDescriptor, "replacementDescriptor");
        return new SuspensionPoint(owner, name, descriptor, Kind.STATIC,
                replacementOwner, replacementName, replacementDescriptor);
    }

    /**
     * A constructor replaced by a static factory method: {@code new owner(args)} becomes {@code
     * replacementOwner.replacementName(args)}, whose descriptor takes the constructor's parameters and returns
     * {@code owner}.
     *
     * @param owner internal name of the class, e.g. {@code java/net/Socket}
     * @param descriptor the constructor's descriptor, e.g. {@code (Ljava/lang/String;I)V}
     * @throws IllegalArgumentException if {@code descriptor} does not return {@code void}
     */
    public static SuspensionPoint replaceConstructor(String owner, String descriptor, String replacementOwner,
                                                     String replacementName) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(replacementOwner, "replacementOwner");
        Objects.requireNonNull(replacementName, "replacementName");
        if (!descriptor.endsWith(")V")) {
            throw new IllegalArgumentException("descriptor: " + descriptor + " (expected: a constructor's, returning V)");
        }
        return new SuspensionPoint(owner, "<init>", descriptor, Kind.CONSTRUCTOR, replacementOwner, replacementName,
                descriptor.substring(0, descriptor.length() - 1) + "L" + owner + ";");
    }

    /**
     * A constructor replaced by a static factory method that never waits ({@link Kind#CONSTRUCTOR_SUBSTITUTE}):
     * as {@link #replaceConstructor}, but the replacement's call is not a suspension point.
     *
     * @throws IllegalArgumentException if {@code descriptor} does not return {@code void}
     */
    public static SuspensionPoint substituteConstructor(String owner, String descriptor, String replacementOwner,
                                                        String replacementName) {
        SuspensionPoint p = replaceConstructor(owner, descriptor, replacementOwner, replacementName);
        return new SuspensionPoint(owner, "<init>", descriptor, Kind.CONSTRUCTOR_SUBSTITUTE, replacementOwner,
                replacementName, p.replacementDescriptor);
    }

    /**
     * A static method replaced by a static method that never waits ({@link Kind#STATIC_SUBSTITUTE}), taking the same
     * arguments and returning the same type.
     *
     * @param owner internal name of the class declaring the static method, e.g. {@code javax/net/SocketFactory}
     */
    public static SuspensionPoint substituteStatic(String owner, String name, String descriptor, String replacementOwner,
                                                   String replacementName) {
        Objects.requireNonNull(replacementOwner, "replacementOwner");
        Objects.requireNonNull(replacementName, "replacementName");
        return new SuspensionPoint(owner, name, descriptor, Kind.STATIC_SUBSTITUTE, replacementOwner, replacementName,
                descriptor);
    }

    /**
     * A {@code final} instance method replaced by a static method that never waits ({@link Kind#FINAL_SUBSTITUTE}),
     * taking the receiver followed by the original arguments and returning the same type.
     *
     * @param owner internal name of the class declaring the final method, e.g. {@code javax/net/ssl/SSLContext}
     */
    public static SuspensionPoint substituteFinal(String owner, String name, String descriptor, String replacementOwner,
                                                  String replacementName) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(replacementOwner, "replacementOwner");
        Objects.requireNonNull(replacementName, "replacementName");
        return new SuspensionPoint(owner, name, descriptor, Kind.FINAL_SUBSTITUTE, replacementOwner, replacementName,
                "(L" + owner + ";" + descriptor.substring(1));
    }

    /** Whether this point replaces a constructor ({@link Kind#CONSTRUCTOR} or {@link Kind#CONSTRUCTOR_SUBSTITUTE}). */
    public boolean isConstructor() {
        return kind == Kind.CONSTRUCTOR || kind == Kind.CONSTRUCTOR_SUBSTITUTE;
    }

    /** Internal name of the type that declares the blocking method. */
    public String owner() {
        return owner;
    }

    /** Name of the blocking method. */
    public String name() {
        return name;
    }

    /** Descriptor of the blocking method. */
    public String descriptor() {
        return descriptor;
    }

    /** How call sites are rewritten. */
    public Kind kind() {
        return kind;
    }

    /** For the replacing kinds (all but the two await kinds): internal name of the replacement's class. */
    public String replacementOwner() {
        return replacementOwner;
    }

    /** For the replacing kinds: the replacement's name. */
    public String replacementName() {
        return replacementName;
    }

    /** For the replacing kinds: the replacement's descriptor. */
    public String replacementDescriptor() {
        return replacementDescriptor;
    }

    @Override
    public String toString() {
        return owner + "." + name + descriptor + (replacementOwner != null
                ? " -> " + replacementOwner + "." + replacementName + replacementDescriptor
                : kind == Kind.AWAIT_RECEIVER ? " -> await receiver" : " -> await receiver interruptibly");
    }
}
