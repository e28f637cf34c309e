package flowtest.libraries;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;

/**
 * A query that outlives the connection's {@code socketTimeout} ({@code select pg_sleep(...)}): returns the
 * {@code SQLException} pgjdbc throws (type, SQL state, message, its cause's type and message) and whether the
 * connection is closed after it. The connection is given, open; this closes it.
 */
public class PgJdbcSocketTimeout implements Callable<String> {
    private final Connection connection;
    private final double sleepSeconds;

    public PgJdbcSocketTimeout(Connection connection, Double sleepSeconds) {
        this.connection = connection;
        this.sleepSeconds = sleepSeconds;
    }

    @Override
    public String call() throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement()) {
            try {
                s.executeQuery("select pg_sleep(" + sleepSeconds + ")").close();
                return "no timeout";
            } catch (SQLException e) {
                Throwable cause = e.getCause();
                return e.getClass().getName() + " " + e.getSQLState() + " " + e.getMessage() + " caused by "
                        + (cause == null ? "nothing" : cause.getClass().getName() + ": " + cause.getMessage())
                        + "; closed " + c.isClosed();
            }
        }
    }
}
