package io.sparkscope.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import javax.sql.DataSource;

/**
 * The migrations this code ships, and a quick way to tell that a database already has exactly them.
 *
 * <p>Why: every command that opens the database, the server and each Spark driver with the listener ask whether the
 * schema is current. Flyway answers by loading itself, scanning the classpath for scripts and reading its history table
 * three times: about 0.8 s of CPU in a fresh JVM, on a question whose answer is almost always "yes, current". Here one
 * query reads the history table and compares it with the scripts named below, checksums included (Flyway's own
 * checksum: a CRC-32 over each line's UTF-8 bytes without line endings). Only when they match exactly is the answer
 * given without Flyway; anything else (an empty or older database, a newer one, a failed or edited migration, a
 * history table that cannot be read) goes to Flyway as before, which migrates or explains.
 *
 * <p>A new migration must be added to {@link #SCRIPTS}. If it is forgotten, nothing breaks: the history then holds a
 * version this list does not, and every check takes Flyway's slower path. A test compares this list with the
 * migration directory, so the build says so.
 */
final class ShippedMigrations {

    /** The scripts under {@link SchemaManager#LOCATION}, in version order. */
    static final List<String> SCRIPTS = List.of(
            "V1__schema.sql",
            "V2__name_search.sql",
            "V3__search_order_indexes.sql",
            "V4__task_detail.sql",
            "V5__webhook_notifications.sql",
            "V6__fetch_state.sql",
            "V7__search_banners.sql",
            "V8__diagnosis_and_job_key.sql",
            "V9__saving_order.sql",
            "V11__streaming.sql",
            "V14__jobs_executors_tasks.sql",
            "V15__log_watch.sql",
            "V16__sql_plan_graph.sql",
            "V17__efficiency.sql",
            "V18__task_table_indexes.sql",
            "V19__task_prune.sql",
            "V20__search_columns.sql",
            "V21__stage_statistics_without_foreign_key.sql",
            "V22__executor_order_index.sql",
            "V24__executor_pages.sql",
            "V25__scheduler_lineage.sql",
            "V26__finding_core_time.sql",
            "V27__summaries.sql",
            "V28__task_partitions.sql",
            "V29__name_index_carries_job.sql",
            "V30__search_by_start_covering.sql",
            "V31__user_severity_index.sql",
            "V32__task_without_foreign_key.sql",
            "V33__task_metrics_as_array.sql",
            "V34__task_without_app_duration_index.sql",
            "V35__task_partition_creators_take_turns.sql");

    /** Version to checksum, computed once per JVM; null if a script could not be read (then Flyway decides). */
    private static volatile Map<String, Integer> checksums;

    private ShippedMigrations() {
    }

    /**
     * {@link SchemaStatus.State#CURRENT} when the database's history holds exactly the shipped migrations, each
     * successful and with the same checksum; null in every other case, for Flyway to look at.
     */
    static SchemaStatus currentOrNull(DataSource dataSource) {
        Map<String, Integer> shipped = checksums();
        if (shipped == null) {
            return null;
        }
        Map<String, Integer> applied = new HashMap<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version, type, checksum, success FROM "
                     + SchemaManager.HISTORY_TABLE)) {
            while (rs.next()) {
                String version = rs.getString(1);
                String type = rs.getString(2);
                int checksum = rs.getInt(3);
                boolean noChecksum = rs.wasNull();
                if (!rs.getBoolean(4)) {
                    return null;
                }
                if (!"SQL".equals(type)) {
                    // Flyway's own markers (the baseline at version 0 in a database that held other tables first)
                    // carry no script; any other kind of row is not ours to judge.
                    if (version == null || "0".equals(version)) {
                        continue;
                    }
                    return null;
                }
                if (noChecksum || applied.put(version, checksum) != null) {
                    return null;
                }
            }
        } catch (SQLException e) {
            // no history table yet, no permission, the database went away: Flyway reports each of these properly
            return null;
        }
        if (!applied.equals(shipped)) {
            return null;
        }
        String newest = version(SCRIPTS.get(SCRIPTS.size() - 1));
        return SchemaManager.status(newest, newest, false);
    }

    private static Map<String, Integer> checksums() {
        Map<String, Integer> known = checksums;
        if (known == null) {
            Map<String, Integer> computed = new HashMap<>();
            for (String script : SCRIPTS) {
                Integer checksum = checksum(script);
                if (checksum == null) {
                    return null;
                }
                computed.put(version(script), checksum);
            }
            known = Map.copyOf(computed);
            checksums = known;
        }
        return known;
    }

    /** "V33__task_metrics_as_array.sql" → "33". */
    static String version(String script) {
        return script.substring(1, script.indexOf("__"));
    }

    /** Flyway's checksum of a script: CRC-32 over each line's UTF-8 bytes, line endings and a leading BOM left out. */
    static Integer checksum(String script) {
        String path = SchemaManager.LOCATION.substring("classpath:".length()) + "/" + script;
        InputStream in = ShippedMigrations.class.getClassLoader().getResourceAsStream(path);
        if (in == null) {
            return null;
        }
        CRC32 crc = new CRC32();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            boolean first = true;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (first && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                first = false;
                crc.update(line.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            return null;
        }
        return (int) crc.getValue();
    }
}
