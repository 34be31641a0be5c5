package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.CauseLinker;
import io.sparkscope.core.heuristics.ErrorGroups;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each failed stage attempt is HIGH, with the first lines of its failure reason and its failed tasks' errors grouped
 * by normalised message. A stage cancelled because of another failure (or by the user) is LOW: it is a knock-on
 * effect, and the engine groups it under the failure that cancelled it. The advice follows the reason's kind and
 * the executors' kind (GPU executors run out of GPU memory, not heap).
 */
public final class StageFailure implements Heuristic {
    public static final String ID = "StageFailure";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return """
                a failed stage attempt → HIGH, with the first 5 lines of its reason and its tasks' grouped errors; a
                stage cancelled (by the user, or because another failure ended its job or the application) → LOW,
                since it is a knock-on effect shown under its cause. Advice follows the reason (lost shuffle →
                memory overhead, shuffle service unless it is on; out of memory → memory per task or smaller
                partitions; on GPU executors fewer concurrent GPU tasks and smaller partitions). Impact: the stage's
                wall and task time.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        int slots = Facts.slots(app, conf);
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            if (s.status() != StageSummary.StageStatus.FAILED) {
                continue;
            }
            String reason = ErrorGroups.firstLines(s.failureReason());
            String firstLine = Facts.firstLines(s.failureReason(), 1, 300);
            boolean cancelled = cancelled(s.failureReason());
            ErrorGroups errors = new ErrorGroups();
            for (TaskRecord t : s.keptTasks()) {
                if ("FAILED".equals(t.status())) {
                    errors.add(t.errorMessage(), s.key(), t.executorId());
                }
            }
            long runMs = s.totals() == null ? 0 : s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
            Finding.Builder f = Finding.builder(ID, cancelled ? Severity.LOW : Severity.HIGH)
                    .location(s.key())
                    .title("Stage " + s.stageId() + (cancelled ? " was cancelled" : " failed"))
                    .message(Facts.capitalize(Facts.stageLabel(s, app)) + (cancelled ? " was cancelled" : " failed")
                            + " with " + partitionsCompleted(s) + " (" + s.numCompleteTasks() + " successful and "
                            + s.numFailedAttempts() + " failed task attempts" + (s.numResubmittedTasks() > 0 ? ", "
                            + s.numResubmittedTasks() + " finished ones resubmitted after their output was lost" : "")
                            + ")" + (firstLine.isEmpty() ? "." : ": " + firstLine))
                    .stage(s.key())
                    .impact(Facts.stageDurationMs(s), runMs, "the failed stage's wall time and task time")
                    .detail("stageId", s.stageId())
                    .detail("attemptId", s.attemptId())
                    .detail("numTasks", s.numTasks())
                    .detail("failedTasks", s.numFailedTasks())
                    .detail("killedTasks", s.numKilledTasks())
                    .detail("cancelled", cancelled)
                    .detail("failureReason", reason)
                    .detail("signature", ErrorGroups.signature(s.failureReason()))
                    .detail("errorGroups", errors.top(5));
            if (cancelled) {
                f.recommendation("The stage was cancelled, by the user or because another failure ended its job or"
                        + " the application (see the failure it is grouped under); act on it only if that was"
                        + " unexpected.");
            } else {
                f.recommendation(advise(f, app, conf, s, kinds.get(s.key()), slots, s.failureReason()));
            }
            out.add(f.build());
        }
        return out;
    }

    /** Never "N of M" with N above M: indices beyond the stage's partitions (a damaged log) are said so. */
    private static String partitionsCompleted(StageSummary s) {
        return s.numCompletedIndices() <= s.numTasks()
                ? s.numCompletedIndices() + " of " + s.numTasks() + " partitions completed"
                : s.numCompletedIndices() + " distinct partition indices completed (" + s.numTasks() + " partitions)";
    }

    /** Spark's words for a stage stopped from outside rather than failing on its own. */
    static boolean cancelled(String reason) {
        return CauseLinker.cancelled(reason);
    }

    /**
     * Advice for a stage whose tasks failed with {@code error}, by its kind: lost executors or shuffle files, out of
     * memory (GPU or heap), or anything else; adds the setting advice to {@code f}. Shared with TaskFailure.
     */
    static String advise(Finding.Builder f, AppSnapshot app, SparkSettings conf, StageSummary s, Facts.StageKind kind, int slots,
                         String error) {
        String r = error == null ? "" : error.toLowerCase(Locale.ROOT);
        if (r.contains("fetchfailed") || r.contains("metadatafetchfailed") || r.contains("executorlost")
                || r.contains("executor lost")) {
            SettingAdvice overhead = conf.advise("spark.executor.memoryOverhead",
                    Units.sparkSize(conf.executorOverheadBytes() * 3 / 2),
                    "executors holding shuffle data were lost in stage " + s.stageId());
            f.advise(overhead);
            String keep;
            if (conf.shuffleService()) {
                keep = " The external shuffle service is already on (spark.shuffle.service.enabled=true), so the"
                        + " files went with their node or the service: check the lost executors' hosts.";
            } else {
                SettingAdvice service = conf.advise("spark.shuffle.service.enabled", "true",
                        "shuffle files were lost with their executor in stage " + s.stageId());
                f.advise(service);
                keep = " Keep shuffle files when executors go: " + service.phrase() + ", or"
                        + " spark.decommission.enabled=true.";
            }
            return "Shuffle data was lost, usually because an executor died (often killed for exceeding its"
                    + " memory limit). Give executors headroom: " + overhead.phrase() + "." + keep;
        }
        if (MemoryFailures.outOfMemory(error)) {
            long target = Math.max(s.numTasks() + 1L, s.numTasks() * 2L);
            Partitioning p = Partitioning.of(app, conf, kind, s, target, slots,
                    "tasks of stage " + s.stageId() + " ran out of memory");
            p.advice().forEach(f::advise);
            if (conf.gpuExecutors()) {
                SparkSettings.Value gpuTasks = conf.current("spark.rapids.sql.concurrentGpuTasks");
                String lower = "";
                int now = conf.integer("spark.rapids.sql.concurrentGpuTasks").orElse(2);
                if (now > 1) {
                    SettingAdvice a = gpuTasks.known()
                            ? conf.advise("spark.rapids.sql.concurrentGpuTasks", Integer.toString(now / 2),
                            "tasks of stage " + s.stageId() + " ran out of GPU memory")
                            : new SettingAdvice("spark.rapids.sql.concurrentGpuTasks", "2",
                            SettingAdvice.ValueSource.DEFAULT, "1", "tasks of stage " + s.stageId()
                            + " ran out of GPU memory");
                    f.advise(a);
                    lower = " let fewer tasks share a GPU (" + a.phrase() + "), or";
                }
                return "Tasks ran out of GPU memory. These executors carry GPUs (RAPIDS), so executor heap"
                        + " and cores are not what limits a task: give each task a smaller share of the data or more"
                        + " of the GPU:" + lower + " make partitions smaller: " + p.text() + ".";
            } else {
                SettingAdvice m = TaskHeap.of(app, conf).more("tasks of stage " + s.stageId() + " ran out of memory");
                f.advise(m);
                return "Tasks ran out of memory. Give each task more memory (" + m.phrase()
                        + (conf.isLocal() ? "" : ", or fewer concurrent tasks per executor with fewer"
                        + " spark.executor.cores") + ") or make partitions smaller: " + p.text() + ".";
            }
        }
        return "Read the reason and the failed tasks' errors (TaskFailure): the same exception on many tasks"
                + " is a bug or bad input, not bad luck. Fix it rather than raising "
                + conf.taskAttemptsPhrase() + ".";
    }
}
