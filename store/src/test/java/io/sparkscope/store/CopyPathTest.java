package io.sparkscope.store;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The COPY path of {@link SnapshotWriter} (big tables; here forced for every table with copyThreshold 0): the same
 * rows as the batched path for strings that are special to COPY's text format, to array literals or to JSON, both
 * for a brand-new application (COPY straight into the tables) and for a rewrite (staging tables, upsert, stale-row
 * delete).
 */
class CopyPathTest {
    static DataSource ds;
    static final SnapshotWriter COPY_ALL = new SnapshotWriter(1000, 0);
    static final SnapshotWriter BATCH_ONLY = new SnapshotWriter(1000, Integer.MAX_VALUE);

    /** Everything COPY text format, array literals or JSON treat specially, and unicode beyond the BMP. */
    static final List<String> NASTY = List.of(
            "tab\there", "new\nline", "carriage\rreturn", "crlf\r\n", "back\\slash", "\\N", "\\.", "\\", "\\\\",
            "\\t not a tab", "ends with backslash\\", "\\.\nend-of-data marker on its own line\n\\.\n", "",
            " ", "NULL", "null", "\"double\" 'single'", "{braces,commas}", "{\"a\":[1,2]}", "a,b", "\"",
            "Grüße 日本語 🚀 \uD83D\uDE00", "\u0001\u0007\b\f\u000B\u001F control", "\u2028\u2029 separators",
            "'; DROP TABLE task; --", "100% _under_", "\u00A0nbsp");

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    /** The rich snapshot with NASTY strings in every text column kind: config, names, hosts, errors, plans. */
    static AppSnapshot nasty(String appId, int variant) {
        AppSnapshot base = SnapshotBuilder.rich(appId, null, true);
        Map<String, String> spark = new LinkedHashMap<>(base.config().sparkProperties());
        for (int i = 0; i < NASTY.size(); i++) {
            spark.put("spark.nasty." + i + "." + NASTY.get(i), NASTY.get((i + variant) % NASTY.size()));
        }
        List<StageSummary> stages = new ArrayList<>();
        int n = 0;
        for (StageSummary st : base.stages()) {
            List<TaskRecord> tasks = new ArrayList<>();
            for (TaskRecord t : st.keptTasks()) {
                String s = NASTY.get(n++ % NASTY.size());
                tasks.add(t.toBuilder().executorId(s).host(s + variant).locality(s).status(s).endReason(s)
                        .errorMessage(t.errorMessage() == null ? null : t.errorMessage() + s).build());
            }
            String s = NASTY.get(n++ % NASTY.size());
            stages.add(st.toBuilder().name(s).details(st.details() + s)
                    .failureReason(st.failureReason() == null ? null : st.failureReason() + s).keptTasks(tasks)
                    .taskDetail(null).taskTimes(null).deriveTaskCounts().build());
        }
        return SnapshotBuilder.copy(base)
                .config(new AppConfig(spark, base.config().jvmInformation(), base.config().systemProperties(),
                        base.config().hadoopProperties()))
                .stages(stages).eventCount(base.eventCount() + variant).build();
    }

    static List<Finding> nastyFindings() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("k", "tab\there \\ \" \u00e9");
        details.put("n", Arrays.asList(1, 2.5, null));
        details.put("\\N", NASTY);
        return List.of(new Finding("nasty:" + NASTY.get(0), "nasty", Severity.HIGH, NASTY.get(1), NASTY.get(2),
                NASTY.get(3), NASTY, List.of("", "NULL", "\\", "\"", "{}", "a,b", "🚀"), List.of(), details));
    }

    @Test
    void nastyStringsRoundTripThroughCopyIntoTheTables() throws Exception {
        AppSnapshot s = nasty("app-copy-new", 0);
        assertTrue(COPY_ALL.write(ds, s, nastyFindings()).written());
        assertEquals(s, SnapshotReader.read(ds, "app-copy-new", null).orElseThrow());
        assertEquals(nastyFindings().get(0).stageIds(), new SnapshotReader(ds).findings("app-copy-new", null).get(0).stageIds());

        // The batched path stores exactly the same rows.
        BATCH_ONLY.write(ds, nasty("app-batch-new", 0), nastyFindings());
        assertEquals(rows("app-copy-new"), rows("app-batch-new"));
    }

    @Test
    void nastyStringsRoundTripThroughStagingOnRewrite() throws Exception {
        COPY_ALL.write(ds, nasty("app-copy-re", 0), List.of());
        COPY_ALL.write(ds, nasty("app-copy-re", 1), nastyFindings()); // every nasty value moves to another key
        AppSnapshot s = nasty("app-copy-re", 2);
        COPY_ALL.write(ds, s, nastyFindings());
        assertEquals(s, SnapshotReader.read(ds, "app-copy-re", null).orElseThrow());

        BATCH_ONLY.write(ds, nasty("app-batch-re", 0), List.of());
        BATCH_ONLY.write(ds, nasty("app-batch-re", 2), nastyFindings());
        assertEquals(rows("app-copy-re"), rows("app-batch-re"));
    }

    @Test
    void rewriteDeletesStaleRowsAndLeavesUnchangedRowsAlone() throws Exception {
        AppSnapshot full = nasty("app-copy-stale", 0);
        COPY_ALL.write(ds, full, nastyFindings());
        String before = versions("app-copy-stale");
        COPY_ALL.write(ds, full, nastyFindings());
        assertEquals(before, versions("app-copy-stale"), "an unchanged rewrite must not create row versions");

        // Drop a stage (its tasks and statistics), some config and the finding.
        List<StageSummary> stages = new ArrayList<>(full.stages().subList(0, 2));
        Map<String, String> spark = new LinkedHashMap<>(full.config().sparkProperties());
        spark.keySet().removeIf(k -> k.startsWith("spark.nasty.1"));
        AppSnapshot fewer = SnapshotBuilder.copy(full)
                .config(new AppConfig(spark, full.config().jvmInformation(), full.config().systemProperties(),
                        full.config().hadoopProperties()))
                .stages(stages).eventCount(full.eventCount() + 1).build();
        COPY_ALL.write(ds, fewer, List.of());
        assertEquals(fewer, SnapshotReader.read(ds, "app-copy-stale", null).orElseThrow());
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM finding f JOIN application a USING (app_pk)"
                + " WHERE a.app_id = 'app-copy-stale'"));
    }

    @Test
    void nulBecomesReplacementCharacterOnBothPaths() throws Exception {
        AppSnapshot base = nasty("app-nul-copy", 0);
        Map<String, String> spark = new LinkedHashMap<>(base.config().sparkProperties());
        spark.put("spark.nul", "a\u0000b");
        for (String app : List.of("app-nul-copy", "app-nul-batch")) {
            AppSnapshot s = SnapshotBuilder.copy(base).appId(app)
                    .config(new AppConfig(spark, Map.of(), Map.of(), Map.of())).build();
            (app.endsWith("copy") ? COPY_ALL : BATCH_ONLY).write(ds, s, List.of());
            assertEquals("a\uFFFDb", SnapshotReader.read(ds, app, null).orElseThrow().config().get("spark.nul")
                    .orElseThrow());
        }
    }

    @Test
    void manyCopyWritesOnOneConnection() throws Exception {
        // Staging tables are created and dropped in every transaction; pgjdbc server-prepares a statement after
        // 5 uses, so this checks that a prepared upsert survives its staging table being recreated.
        try (Connection c = ds.getConnection()) {
            for (int i = 0; i < 12; i++) {
                assertTrue(COPY_ALL.write(c, nasty("app-copy-conn", i), nastyFindings()).written());
                assertTrue(COPY_ALL.write(c, nasty("app-copy-conn-" + i, i), List.of()).written());
            }
            assertEquals(nasty("app-copy-conn", 11), SnapshotReader.read(ds, "app-copy-conn", null).orElseThrow());
            assertTrue(c.getAutoCommit());
        }
    }

    /** Every child row of an app as text, app_pk left out, so two apps can be compared. */
    static String rows(String appId) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            for (String t : List.of("configuration", "executor", "job", "stage_attempt", "stage_statistics", "task",
                    "sql_execution", "finding")) {
                try (ResultSet rs = st.executeQuery("SELECT (to_jsonb(x) - 'app_pk')::text FROM " + t + " x"
                        + " JOIN application a USING (app_pk) WHERE a.app_id = '" + appId + "' ORDER BY 1")) {
                    while (rs.next()) {
                        sb.append(t).append(' ').append(rs.getString(1)).append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }

    static String versions(String appId) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            for (String t : List.of("configuration", "stage_statistics", "task", "finding")) {
                try (ResultSet rs = st.executeQuery("SELECT x.ctid::text, x.xmin::text FROM " + t + " x"
                        + " JOIN application a USING (app_pk) WHERE a.app_id = '" + appId + "' ORDER BY 1")) {
                    while (rs.next()) {
                        sb.append(t).append(rs.getString(1)).append(rs.getString(2)).append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }
}
