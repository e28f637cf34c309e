package flowtest.ccl;

/** A service found through {@code ServiceLoader} and the thread's context class loader, as Jakarta Mail finds its providers. */
public interface Greeter {
    String greet();
}
