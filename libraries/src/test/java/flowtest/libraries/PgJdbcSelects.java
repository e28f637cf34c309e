package flowtest.libraries;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;

/**
 * A pgjdbc session over a connection already open that changes no catalog: prepared selects (past pgjdbc's
 * server-side prepare threshold) over {@code generate_series}, a rolled back and a committed transaction, and
 * the errors of a syntax error, a division by zero and an aborted transaction. {@link PgJdbcClient}'s session
 * creates and drops a temporary table, and every other backend then processes the catalog invalidations; this
 * one leaves the server's cost per session independent of how many sessions are open beside it. Returns what
 * it saw, with its own id replaced by {@code ID}; {@link #call()} closes the connection.
 */
public class PgJdbcSelects implements Callable<String> {
    private final Connection connection;
    private final String id;

    /** A session over {@code connection} (see {@link PgJdbcClient#connect(String, boolean)}). */
    public PgJdbcSelects(Connection connection, String id) {
        this.connection = connection;
        this.id = id;
    }

    @Override
    public String call() throws SQLException {
        StringBuilder log = new StringBuilder();
        try (Connection c = connection; Statement s = c.createStatement()) {
            try (PreparedStatement q = c.prepareStatement(
                    "select n, ? || '-' || n, n * 1.25 from generate_series(1, ?) n order by n")) {
                for (int rows = 1; rows <= 12; rows++) {
                    q.setString(1, id);
                    q.setInt(2, rows % 4 + 1);
                    try (ResultSet rs = q.executeQuery()) {
                        while (rs.next()) {
                            log.append(rs.getInt(1)).append(rs.getString(2).replace(id, "ID")).append('=')
                                    .append(rs.getBigDecimal(3)).append(' ');
                        }
                    }
                }
            }
            log.append("| ");
            c.setAutoCommit(false);
            log.append(sum(s, 10)).append(' ');
            c.rollback();
            log.append(sum(s, 20)).append(' ');
            c.commit();
            c.setAutoCommit(true);
            log.append("| ");
            try (PreparedStatement q = c.prepareStatement("select count(*), max(n) from generate_series(?, ?) n")) {
                for (int from = 0; from < 6; from++) {
                    q.setInt(1, from);
                    q.setInt(2, from * 3);
                    try (ResultSet rs = q.executeQuery()) {
                        rs.next();
                        log.append(rs.getInt(1)).append('/').append(rs.getInt(2)).append(' ');
                    }
                }
            }
            log.append("| ");
            PgJdbcClient.error(log, () -> s.executeQuery("selec 1"));
            c.setAutoCommit(false);
            PgJdbcClient.error(log, () -> s.executeQuery("select 1 / 0"));
            PgJdbcClient.error(log, () -> s.executeQuery("select 1"));
            c.rollback();
            c.setAutoCommit(true);
            log.append(sum(s, 30));
        }
        return log.toString();
    }

    private static String sum(Statement s, int n) throws SQLException {
        try (ResultSet rs = s.executeQuery("select sum(n * 0.5), string_agg(n::text, ',') from generate_series(1, " + n
                + ") n where n % 7 = 0")) {
            rs.next();
            BigDecimal total = rs.getBigDecimal(1);
            return total + " " + rs.getString(2);
        }
    }
}
