package io.sparkscope.store;

import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The efficiency figures of the application row ({@link Efficiency}), computed on every write. A full snapshot holds
 * all they need. A live listener's snapshot of what changed does not: it lists every executor but only the stages
 * that changed, and leaves an unchanged configuration out. For such a write the stored configuration and the stored
 * stages' task spans fill in what it left out, so the figures always describe the whole run; they are read inside the
 * write's transaction, under its lock.
 */
final class EfficiencyFigures {
    private static final Logger LOG = LoggerFactory.getLogger(EfficiencyFigures.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private EfficiencyFigures() {
    }

    /** The figures, or null when they cannot be computed (logged once; the rest of the write goes on). */
    static Efficiency of(Connection c, OptionalLong storedPk, AppSnapshot s) throws SQLException {
        try {
            AppSnapshot whole = s.partial() && storedPk.isPresent() ? completed(c, storedPk.getAsLong(), s) : s;
            return Efficiency.of(whole);
        } catch (RuntimeException e) {
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: cannot compute the efficiency figures of {} ({}); stored without them",
                        s.appId(), e.toString());
            }
            return null;
        }
    }

    /** The partial snapshot with the stored configuration under its own and the stored stages it does not list. */
    private static AppSnapshot completed(Connection c, long pk, AppSnapshot s) throws SQLException {
        Map<String, String> spark = new HashMap<>();
        Map<String, String> system = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT scope, key, value FROM configuration"
                + " WHERE app_pk = ? AND scope IN ('spark', 'system')")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ("spark".equals(rs.getString(1)) ? spark : system).put(rs.getString(2), rs.getString(3));
                }
            }
        }
        spark.putAll(s.config().sparkProperties());
        system.putAll(s.config().systemProperties());
        AppConfig config = new AppConfig(spark, s.config().jvmInformation(), system, s.config().hadoopProperties());

        Set<Long> listed = new HashSet<>();
        for (StageSummary st : s.stages()) {
            listed.add(key(st.stageId(), st.attemptId()));
        }
        List<StageSummary> stages = new ArrayList<>(s.stages());
        try (PreparedStatement ps = c.prepareStatement("SELECT stage_id, attempt_id, status,"
                + " first_task_launched_time, last_task_finished_time FROM stage_attempt WHERE app_pk = ?")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int id = rs.getInt(1);
                    int attempt = rs.getInt(2);
                    if (!listed.contains(key(id, attempt))) {
                        stages.add(span(id, attempt, StageSummary.StageStatus.valueOf(rs.getString(3)),
                                rs.getLong(4), rs.getLong(5)));
                    }
                }
            }
        }
        return new AppSnapshot(s.appId(), s.attemptId(), s.appName(), s.sparkUser(), s.sparkVersion(), s.startTime(),
                s.endTime(), s.lastEventTime(), s.complete(), config, s.executors(), s.jobs(), stages,
                s.sqlExecutions(), s.driverGcTimeMs(), s.driverMaxMemory(), s.eventCount(), s.unknownEventTypes(),
                s.totals(), true, s.streamingQueries());
    }

    private static long key(int stageId, int attemptId) {
        return ((long) stageId << 32) | (attemptId & 0xffffffffL);
    }

    /** A stored stage reduced to what the figures read of it: when its tasks ran. */
    private static StageSummary span(int stageId, int attemptId, StageSummary.StageStatus status, long first,
                                     long last) {
        return new StageSummary(stageId, attemptId, "", "", status, 0, 0, 0, 0, 0, 0, 0, 0, first, last, null,
                List.of(), List.of(), null, null, List.of(), Map.of());
    }
}
