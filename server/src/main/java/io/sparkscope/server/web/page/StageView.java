package io.sparkscope.server.web.page;

import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.SqlQuery;
import io.sparkscope.store.query.StagePageQuery;
import io.sparkscope.store.query.StagePlan;
import io.sparkscope.store.query.StageRow;
import io.sparkscope.store.query.TaskListQuery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}}: one stage attempt as the History Server's
 * stage page shows it: its heading and times, where it sits among the stages and the SQL operators it ran, the
 * quantiles of every task metric (stored), its kept tasks summed per executor, its other attempts, the findings about
 * it, its slowest tasks and the way to its task table and timeline. The DAG is drawn by {@link StageDag}; the markup
 * is stage.jte.
 */
final class StageView {
    private StageView() {
    }

    static String render(StagePageQuery.Page p, AppTabs.Live live) {
        Html h = new Html(32 * 1024);
        JtestageGenerated.render(new PageOutput(h), null, p, live, PageOutput.markup(out -> StageDag.render(out, p)));
        return h.toString();
    }

    /** {@code /apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}}. */
    static String url(String appId, String attemptId, int stageId, int stageAttemptId) {
        return Links.stage(appId, attemptId, stageId, stageAttemptId);
    }

    /** An SQL execution's page, at one of its operators when {@code nodeId} ≥ 0. */
    static String sqlUrl(String appId, String attemptId, long executionId, long nodeId) {
        return Urls.appTab(appId, attemptId, "sql") + "/" + executionId + (nodeId >= 0 ? "#node-" + nodeId : "");
    }

    /** The operators by the SQL execution they belong to, in plan order. */
    static Map<Long, List<SqlQuery.StageOperator>> byExecution(List<SqlQuery.StageOperator> ops) {
        Map<Long, List<SqlQuery.StageOperator>> out = new LinkedHashMap<>();
        for (SqlQuery.StageOperator o : ops) {
            out.computeIfAbsent(o.executionId(), k -> new ArrayList<>()).add(o);
        }
        return out;
    }

    /** Task attempts of the stage that ended: what the kept task rows were chosen from. */
    static long ended(StageRow s) {
        return (long) s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
    }

    /**
     * Says what the per-executor sums count when the stored task rows are not all of the stage's: they are then sums
     * over a selection, and the stage's totals above count every task. Null when every ended task was kept.
     */
    static String capped(StagePageQuery.Page p) {
        long ended = ended(p.stage());
        if (p.keptTasks() >= ended) {
            return null;
        }
        String which = "SAMPLED".equals(p.stage().taskDetail())
                ? "the slowest and a uniform sample of the others, and the failed ones"
                : "the slowest and the failed ones";
        return "Summed over the " + Fmt.count(p.keptTasks()) + " stored task rows of " + Fmt.count(ended)
                + " ended task attempts (" + which + ": the recorder keeps every task up to"
                + " spark.sparkscope.tasks.perStage). The stage's totals and quantiles count every task.";
    }

    /** The per-executor rows summed, for the table's last row. */
    static StagePageQuery.ExecutorSums total(List<StagePageQuery.ExecutorSums> rows) {
        int tasks = 0;
        int ok = 0;
        int failed = 0;
        int killed = 0;
        long[] v = new long[8];
        for (StagePageQuery.ExecutorSums e : rows) {
            tasks += e.tasks();
            ok += e.succeeded();
            failed += e.failed();
            killed += e.killed();
            v[0] += e.durationMs();
            v[1] += e.runTimeMs();
            v[2] += e.gcTimeMs();
            v[3] += e.inputBytes();
            v[4] += e.outputBytes();
            v[5] += e.shuffleReadBytes();
            v[6] += e.shuffleWriteBytes();
            v[7] += e.spillBytes();
        }
        return new StagePageQuery.ExecutorSums("all", null, 0, null, tasks, ok, failed, killed, v[0], v[1], v[2],
                v[3], v[4], v[5], v[6], v[7]);
    }

    /** The sentence under the DAG: what it leaves out, and why some neighbour stage has no edge. */
    static String dagNote(StagePageQuery.Page p) {
        String note = StageDag.NOT_SHOWN;
        if (p.plan().truncated()) {
            note += " Only the first " + Fmt.count(StagePlan.MAX_NODES) + " of its plan nodes are drawn.";
        }
        return note;
    }

    /**
     * The task table's request the slowest tasks are the first rows of: its own page length, so its links (the
     * headings', "all of them") open the full table as it pages by itself.
     */
    static TaskListQuery.Request fullTable(StageRow s) {
        return new TaskListQuery.Request(s.stageId(), s.attemptId(), 0, ExecutionPages.PAGE_LENGTH,
                TaskListQuery.Sort.DURATION, true, Set.of(), null);
    }

    /** Where a finding is on the application page. */
    static String findingAnchor(String findingId) {
        return FindingsView.anchor(findingId);
    }

    /** A stage's time as the page shows it: "—" when Spark gave none. */
    static String time(long epochMs) {
        return epochMs > 0 ? Fmt.time(epochMs) : "—";
    }
}
