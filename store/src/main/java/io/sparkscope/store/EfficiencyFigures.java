package io.sparkscope.store;

import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskSpanSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The efficiency figures of the application row ({@link Efficiency}), computed on every write. A full snapshot holds
 * all they need. A live listener's snapshot of what changed does not: it lists every executor but only the stages
 * that changed, and leaves an unchanged configuration out. For such a write the stored configuration and the stored
 * stages' task spans fill in what it left out, so the figures always describe the whole run; they are read inside the
 * write's transaction, under its lock.
 *
 * <p>Reading them costs one row per stage of the run on every periodic write, so a driver that ran thousands of jobs
 * paid more per write the longer it ran. A {@link Memory} (one per writer) therefore remembers, per application it
 * wrote a partial snapshot of, what the database holds after that write: the configuration and the stages reduced to
 * what the figures read. The next partial write uses it instead of reading the rows when the application row is still
 * the version that write left ({@code xmin}, the transaction that last wrote the row): anyone else's write of the
 * application rewrites that row (its event count, figures, timestamps) and so makes the memory unusable, and a
 * deleted and re-created application has another key. The figures come out of the same inputs either way.
 *
 * <p>What it remembers stays bounded however long the application runs: past {@link Stored#KEPT_STAGES} stages, the
 * oldest finished ones are folded into one union of task spans ({@link TaskSpanSummary}, as the recorder folds the
 * stages that leave its window), which is all the driver-alone figures need of them. So a write's cost follows what
 * it changed, not the length of the run, and the rows are read back only when the memory cannot be used.
 */
final class EfficiencyFigures {
    private static final Logger LOG = LoggerFactory.getLogger(EfficiencyFigures.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private EfficiencyFigures() {
    }

    /** The figures, or null when they cannot be computed (logged once; the rest of the write goes on). */
    static Efficiency of(Connection c, OptionalLong storedPk, AppSnapshot s) throws SQLException {
        AppSnapshot whole;
        try {
            whole = s.partial() && storedPk.isPresent() ? completed(s, read(c, storedPk.getAsLong()).after(s)) : s;
        } catch (RuntimeException e) {
            return failed(s, e);
        }
        return compute(s, whole);
    }

    private static Efficiency compute(AppSnapshot s, AppSnapshot whole) {
        try {
            return Efficiency.of(whole);
        } catch (RuntimeException e) {
            return failed(s, e);
        }
    }

    private static Efficiency failed(AppSnapshot s, RuntimeException e) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("Sparkscope: cannot compute the efficiency figures of {} ({}); stored without them",
                    s.appId(), e.toString());
        }
        return null;
    }

    /** The figures of a write, and what the database holds once that write commits (null: nothing to remember). */
    record Figures(Efficiency efficiency, Stored after) {
    }

    /**
     * The figures of the snapshot about to be written over {@code existing} (empty: a new application), using and
     * preparing {@code memory}'s entry for a partial snapshot. The caller remembers {@link Figures#after} only once
     * the write committed ({@link Memory#remember}).
     */
    static Figures of(Connection c, Optional<ApplicationRow.Existing> existing, AppSnapshot s, Memory memory)
            throws SQLException {
        if (!s.partial()) {
            existing.ifPresent(e -> memory.forget(e.pk()));
            return new Figures(compute(s, s), null);
        }
        if (existing.isEmpty()) {
            // nothing stored yet: after this write the database holds exactly what the snapshot lists
            Stored after = Stored.EMPTY.after(s);
            return new Figures(compute(s, s), after);
        }
        long pk = existing.get().pk();
        Stored after;
        AppSnapshot whole;
        try {
            Stored before = memory.recall(pk, existing.get().version());
            if (before == null) {
                before = read(c, pk);
            }
            after = before.after(s);
            whole = completed(s, after);
        } catch (RuntimeException e) {
            return new Figures(failed(s, e), null); // the write goes on without figures, and nothing remembered
        }
        return new Figures(compute(s, whole), after);
    }

    /**
     * What the figures read of one application's stored rows: its spark and system configuration, and its stages
     * reduced to their task spans (by {@link SnapshotRows#stageKey}).
     */
    static final class Stored {
        /** Stages kept one by one; older finished ones are folded into {@link #folded}. */
        static final int KEPT_STAGES = 2_000;
        static final Stored EMPTY = new Stored(Map.of(), Map.of(), Map.of(), null);

        private final Map<String, String> spark;
        private final Map<String, String> system;
        private final Map<Long, StageSummary> stages;
        /** The union of the task spans of the stages folded away, or null when none was. */
        private final TaskSpanSummary folded;

        private Stored(Map<String, String> spark, Map<String, String> system, Map<Long, StageSummary> stages,
                       TaskSpanSummary folded) {
            this.spark = spark;
            this.system = system;
            this.stages = stages;
            this.folded = folded;
        }

        /**
         * What the database holds after a partial snapshot is written over this: a partial write deletes no
         * configuration entry and no stage, and replaces those it lists.
         */
        Stored after(AppSnapshot s) {
            Map<String, String> sp = new HashMap<>(spark);
            sp.putAll(s.config().sparkProperties());
            Map<String, String> sy = new HashMap<>(system);
            sy.putAll(s.config().systemProperties());
            Map<Long, StageSummary> st = new HashMap<>(stages);
            for (StageSummary stage : s.stages()) {
                st.put(key(stage.stageId(), stage.attemptId()), span(stage.stageId(), stage.attemptId(),
                        stage.status(), stage.firstTaskLaunchedTime(), stage.lastTaskFinishedTime()));
            }
            return st.size() > KEPT_STAGES ? fold(sp, sy, st, folded, s.startTime())
                    : new Stored(sp, sy, st, folded);
        }

        /**
         * Folds the oldest finished stages into the union until {@link #KEPT_STAGES} are left one by one (more when
         * stages still run), in the order their spans start, up to the latest end {@code T} among them. A stage still
         * running that started before {@code T} covers [its start, {@code T}) too (its span reaches the application's
         * end), so that part is folded with them while the stage itself stays listed. The union is then exactly what
         * a sweep over all the stages covers up to {@code T}, and the listed stages continue it: a kept stage that
         * started before {@code T} lies inside a folded span that ends at {@code T}. A stage with no task launched
         * has no span to fold and simply goes (if it runs later, the snapshot that says so lists it again); a folded
         * stage listed again later (a late change) adds nothing the union does not hold.
         */
        private static Stored fold(Map<String, String> sp, Map<String, String> sy, Map<Long, StageSummary> st,
                                   TaskSpanSummary folded, long appStart) {
            List<Map.Entry<Long, StageSummary>> foldable = new ArrayList<>();
            for (Map.Entry<Long, StageSummary> e : st.entrySet()) {
                if (e.getValue().firstTaskLaunchedTime() <= 0 || finished(e.getValue())) {
                    foldable.add(e);
                }
            }
            // spanless ones first (they fold to nothing), then by where their span starts
            foldable.sort(Comparator.comparingLong((Map.Entry<Long, StageSummary> e) ->
                    Math.max(0, e.getValue().firstTaskLaunchedTime())).thenComparingLong(Map.Entry::getKey));
            int excess = Math.min(foldable.size(), st.size() - KEPT_STAGES);
            List<StageSummary> spans = new ArrayList<>(excess);
            long until = Long.MIN_VALUE;
            for (int i = 0; i < excess; i++) {
                StageSummary stage = st.remove(foldable.get(i).getKey());
                if (stage.firstTaskLaunchedTime() > 0) {
                    spans.add(stage);
                    until = Math.max(until, stage.lastTaskFinishedTime());
                }
            }
            for (StageSummary stage : st.values()) {
                long first = stage.firstTaskLaunchedTime();
                if (first > 0 && first < until && !finished(stage)) {
                    spans.add(span(stage.stageId(), stage.attemptId(), stage.status(), first, until));
                }
            }
            spans.sort(Comparator.comparingLong(StageSummary::firstTaskLaunchedTime));
            TaskSpanSummary.Builder union = new TaskSpanSummary.Builder(folded);
            for (StageSummary stage : spans) {
                union.fold(appStart, stage.firstTaskLaunchedTime(), stage.lastTaskFinishedTime(), stage.key());
            }
            return new Stored(sp, sy, st, union.build());
        }

        /** Ended, with its tasks' span closed: it cannot grow any more. */
        private static boolean finished(StageSummary stage) {
            return switch (stage.status()) {
                case COMPLETE, FAILED, SKIPPED -> stage.lastTaskFinishedTime() >= stage.firstTaskLaunchedTime();
                default -> false;
            };
        }

        int size() {
            return stages.size() + spark.size() + system.size();
        }

        /** Stages kept one by one (tests). */
        int keptStages() {
            return stages.size();
        }

        /** Whether older stages were folded into one union (tests). */
        boolean foldedAny() {
            return folded != null;
        }
    }

    /**
     * Per application (app_pk) a writer wrote partial snapshots of: what the database held after its last write, and
     * the version of the application row that write left. A few applications at most (a listener writes one), each
     * about {@link Stored#KEPT_STAGES} stages (≈ 200 bytes each) plus its settings. {@link #MAX_ENTRIES_PER_APP} is
     * a safety bound only, for stages that cannot be folded (thousands running at once) or a huge configuration:
     * past it the rows are read again at the next write.
     */
    static final class Memory {
        static final int MAX_APPS = 4;
        static final int MAX_ENTRIES_PER_APP = 20_000;

        private record Entry(long version, Stored stored) {
        }

        private final Map<Long, Entry> byApp = new java.util.LinkedHashMap<>(8, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Entry> eldest) {
                return size() > MAX_APPS;
            }
        };

        /** The stored rows as remembered, or null when not remembered or the row is not the version written last. */
        synchronized Stored recall(long pk, long version) {
            Entry e = byApp.get(pk);
            if (e == null || e.version() != version) {
                byApp.remove(pk);
                return null;
            }
            return e.stored();
        }

        /** After a committed write that left the application row at {@code version}. */
        synchronized void remember(long pk, long version, Stored stored) {
            if (stored.size() > MAX_ENTRIES_PER_APP) {
                byApp.remove(pk);
            } else {
                byApp.put(pk, new Entry(version, stored));
            }
        }

        synchronized void forget(long pk) {
            byApp.remove(pk);
        }
    }

    /** The stored configuration and stages of application {@code pk}. */
    private static Stored read(Connection c, long pk) throws SQLException {
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
        Map<Long, StageSummary> stages = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT stage_id, attempt_id, status,"
                + " first_task_launched_time, last_task_finished_time FROM stage_attempt WHERE app_pk = ?")) {
            ps.setLong(1, pk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int id = rs.getInt(1);
                    int attempt = rs.getInt(2);
                    stages.put(key(id, attempt), span(id, attempt, StageSummary.StageStatus.valueOf(rs.getString(3)),
                            rs.getLong(4), rs.getLong(5)));
                }
            }
        }
        return new Stored(spark, system, stages, null);
    }

    /**
     * The partial snapshot with the stored configuration under its own and the stored stages it does not list
     * ({@code after}: the stored rows with the snapshot's written over them).
     */
    private static AppSnapshot completed(AppSnapshot s, Stored after) {
        AppConfig config = new AppConfig(after.spark, s.config().jvmInformation(), after.system,
                s.config().hadoopProperties());
        Set<Long> listed = new HashSet<>();
        for (StageSummary st : s.stages()) {
            listed.add(key(st.stageId(), st.attemptId()));
        }
        List<StageSummary> stages = new ArrayList<>(s.stages());
        after.stages.forEach((key, span) -> {
            if (!listed.contains(key)) {
                stages.add(span);
            }
        });
        // The stages not listed are those folded into the memory's union (none when the rows were read), not the
        // listener's window: the totals carry that union for the driver-alone figures.
        return s.toBuilder().config(config).stages(stages).totals(s.totals().withTaskSpans(after.folded))
                .partial(true).build();
    }

    private static long key(int stageId, int attemptId) {
        return ((long) stageId << 32) | (attemptId & 0xffffffffL);
    }

    /** A stage reduced to what the figures read of it: when its tasks ran. */
    private static StageSummary span(int stageId, int attemptId, StageSummary.StageStatus status, long first,
                                     long last) {
        return StageSummary.builder().stageId(stageId).attemptId(attemptId).name("").details("").status(status)
                .submissionTime(0).completionTime(0).firstTaskLaunchedTime(first).lastTaskFinishedTime(last)
                .totals(null).build();
    }
}
