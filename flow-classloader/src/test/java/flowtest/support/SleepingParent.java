package flowtest.support;

/**
 * A main for {@link ChildJvmTest}: starts a {@code sleep} process of its own, prints {@code "grandchild
 * <pid>"}, then sleeps; both live five minutes unless killed. Single-threaded.
 */
public final class SleepingParent {

    private SleepingParent() {
    }

    public static void main(String[] args) throws Exception {
        Process grandchild = new ProcessBuilder("sleep", "300").start();
        System.out.println("grandchild " + grandchild.pid());
        System.out.flush();
        Thread.sleep(300_000);
    }
}
