package flowtest.mina;

import dev.flow.LineTerminator;
import dev.flow.Transport;
import java.util.concurrent.Callable;

/** One transport operation in plain blocking code, for the contract test's continuation mode. */
public class TransportOp implements Callable<Object> {
    private final String op;
    private final Transport transport;
    private final Object[] args;

    public TransportOp(String op, Transport transport, Object[] args) {
        this.op = op;
        this.transport = transport;
        this.args = args;
    }

    @Override
    public Object call() throws Exception {
        switch (op) {
            case "readLine":
                return transport.readLine();
            case "readLineWith":
                return transport.readLine((LineTerminator) args[0], (Integer) args[1]);
            case "readFully":
                transport.readFully((byte[]) args[0], (Integer) args[1], (Integer) args[2]);
                return null;
            case "readFullyN":
                return transport.readFully((Integer) args[0]);
            case "skip":
                transport.skip((Long) args[0]);
                return null;
            case "writeText":
                transport.writeText((String) args[0]);
                return null;
            case "writeAll":
                transport.write((byte[]) args[0]);
                return null;
            case "read":
                return transport.read((byte[]) args[0], (Integer) args[1], (Integer) args[2]);
            case "writeLine":
                transport.writeLine((String) args[0]);
                return null;
            case "write":
                transport.write((byte[]) args[0], (Integer) args[1], (Integer) args[2]);
                return null;
            case "flush":
                transport.flush();
                return null;
            case "readLineBytes":
                return transport.readLineBytes();
            case "readLineBytesWith":
                return transport.readLineBytes((LineTerminator) args[0], (Integer) args[1]);
            case "readDotBody":
                return transport.readDotBody((java.io.OutputStream) args[0], (Long) args[1]);
            case "flushIfNoInput":
                return transport.flushIfNoInput();
            default:
                throw new IllegalArgumentException("op: " + op);
        }
    }
}
