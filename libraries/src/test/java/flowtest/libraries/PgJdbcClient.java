package flowtest.libraries;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.postgresql.Driver;

/**
 * A pgjdbc session whose socket comes from {@code dev.flow.mina.FlowSocketFactory} (named in the
 * {@code socketFactory} property, as a pgjdbc user configures it): a temporary table, prepared inserts (past
 * pgjdbc's server-side prepare threshold), queries, a rolled back and a committed transaction, a batch, and the
 * errors of a syntax error, a duplicate key and an aborted transaction. Returns what it saw, with its own id
 * replaced by {@code ID}, so that every session of every mode returns the same text.
 */
public class PgJdbcClient implements Callable<String> {
    private final String url;
    private final boolean flowSockets;
    private final Connection given;
    private final String id;

    /** A session that connects in {@link #call()} through Flow's socket factory. */
    public PgJdbcClient(String url, String id) {
        this(url, id, true);
    }

    /** A session that connects in {@link #call()}, through Flow's socket factory or pgjdbc's default (the JDK's). */
    public PgJdbcClient(String url, String id, boolean flowSockets) {
        this.url = url;
        this.flowSockets = flowSockets;
        this.given = null;
        this.id = id;
    }

    /** A session over a connection already open (see {@link #connect(String)}); {@link #call()} closes it. */
    public PgJdbcClient(Connection connection, String id) {
        this.url = null;
        this.flowSockets = false;
        this.given = connection;
        this.id = id;
    }

    /** Opens a connection to {@code url} through Flow's socket factory, as user {@code postgres}. */
    public static Connection connect(String url) throws SQLException {
        return connect(url, true);
    }

    /**
     * Opens a connection to {@code url} as user {@code postgres}, its socket from Flow's socket factory
     * ({@code flowSockets}) or from pgjdbc's default, the JDK's.
     */
    public static Connection connect(String url, boolean flowSockets) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "postgres");
        if (flowSockets) {
            props.setProperty("socketFactory", "dev.flow.mina.FlowSocketFactory");
        }
        return new Driver().connect(url, props);
    }

    @Override
    public String call() throws SQLException {
        StringBuilder log = new StringBuilder();
        try (Connection c = given != null ? given : connect(url, flowSockets); Statement s = c.createStatement()) {
            s.execute("create temp table items (id int primary key, name text not null, price numeric(8,2))");
            try (PreparedStatement insert = c.prepareStatement("insert into items values (?, ?, ?)")) {
                for (int i = 1; i <= 6; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, id + "-" + i);
                    insert.setBigDecimal(3, new BigDecimal(i + ".25"));
                    log.append(insert.executeUpdate());
                }
            }
            log.append(" | ");
            try (PreparedStatement q = c.prepareStatement("select name, price from items where id > ? order by id")) {
                for (int from = 0; from < 6; from += 2) {
                    q.setInt(1, from);
                    try (ResultSet rs = q.executeQuery()) {
                        while (rs.next()) {
                            log.append(rs.getString(1).replace(id, "ID")).append('=').append(rs.getBigDecimal(2)).append(' ');
                        }
                    }
                }
            }
            log.append("| ");
            c.setAutoCommit(false);
            log.append(s.executeUpdate("update items set price = price * 2")).append(' ');
            c.rollback();
            s.executeUpdate("insert into items values (7, 'seven', 7.77)");
            c.commit();
            c.setAutoCommit(true);
            log.append(sum(s)).append(" | ");
            try (PreparedStatement batch = c.prepareStatement("update items set name = name || '!' where id = ?")) {
                for (int i = 1; i <= 3; i++) {
                    batch.setInt(1, i * 2);
                    batch.addBatch();
                }
                for (int n : batch.executeBatch()) {
                    log.append(n);
                }
            }
            log.append(" | ");
            error(log, () -> s.executeQuery("selec 1"));
            error(log, () -> s.executeUpdate("insert into items values (1, 'again', 0)"));
            c.setAutoCommit(false);
            error(log, () -> s.executeQuery("select 1 / 0"));
            error(log, () -> s.executeQuery("select 1"));
            c.rollback();
            c.setAutoCommit(true);
            log.append(sum(s));
            s.execute("drop table items");
        }
        return log.toString();
    }

    private static String sum(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("select count(*), sum(price), string_agg(name, ',' order by id) from items")) {
            rs.next();
            return rs.getInt(1) + " " + rs.getBigDecimal(2) + " " + rs.getString(3).replaceAll("[^,!]*-", "");
        }
    }

    /** A statement whose {@link SQLException} a session logs. */
    interface Sql {
        void run() throws SQLException;
    }

    /** Runs {@code sql} and logs its error (class, SQL state, message), or "no error". */
    static void error(StringBuilder log, Sql sql) {
        try {
            sql.run();
            log.append("no error; ");
        } catch (SQLException e) {
            log.append(e.getClass().getName()).append(' ').append(e.getSQLState()).append(' ')
                    .append(e.getMessage().replace('\n', ' ')).append("; ");
        }
    }
}
