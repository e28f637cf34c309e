import dev.flow.loader.ContinuationClassLoader;
import java.lang.reflect.Method;
import java.security.MessageDigest;
import java.util.HexFormat;

public class Dump {
    public static void main(String[] args) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("dev.flow.bench.flows").build();
        Method m = ContinuationClassLoader.class.getDeclaredMethod("definedBytes", String.class);
        m.setAccessible(true);
        for (String n : new String[] {"FrameChain", "YieldLoop", "PingPongLoop", "ParkedAtDepth3", "EchoRounds"}) {
            String cn = "dev.flow.bench.flows." + n;
            Class.forName(cn, true, loader);
            byte[] b = (byte[]) m.invoke(loader, cn);
            System.out.println(n + " " + (b == null ? "null" : b.length + " " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b)).substring(0, 16)));
        }
    }
}
