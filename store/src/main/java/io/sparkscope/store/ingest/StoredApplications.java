package io.sparkscope.store.ingest;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Which applications the database holds, for commands that go over all of them ({@code reanalyze}). */
public final class StoredApplications {
    private static final String KEYS_SQL = "SELECT app_id, attempt_id FROM application"
            + " ORDER BY start_time, app_id COLLATE \"C\", attempt_id COLLATE \"C\"";

    private StoredApplications() {
    }

    /** Every stored application attempt, oldest start first. */
    public static List<AppKey> keys(DataSource ds) throws SQLException {
        List<AppKey> keys = new ArrayList<>();
        try (Connection c = ds.getConnection();
             PreparedStatement st = c.prepareStatement(KEYS_SQL);
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                keys.add(new AppKey(rs.getString(1), rs.getString(2)));
            }
        }
        return keys;
    }
}
