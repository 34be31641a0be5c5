package io.sparkscope.server.web.model;

import io.javalin.http.Context;
import io.sparkscope.core.analysis.timeline.ExecutorSlots;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.query.StageTimelineData;
import io.sparkscope.store.query.TimelineQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The timeline routes' shared part: validates the path, loads the stage attempt ({@link TimelineQuery}) and lays it
 * out ({@link TaskTimeline}); the timeline page and its JSON route present the result.
 */
public final class StageTimelines {
    private static final Pattern STAGE_NUMBER = Pattern.compile("\\d{1,9}");

    private final TimelineQuery query;

    public StageTimelines(DataSource dataSource) {
        this.query = new TimelineQuery(dataSource);
    }

    /** The stored stage and its layout. */
    public record Loaded(StageTimelineData data, TaskTimeline timeline) {
    }

    public Loaded load(Context ctx, String attemptId) throws SQLException {
        String appId = Params.checkId("appId", ctx.pathParam("appId"));
        Params.checkId("attemptId", attemptId);
        int stageId = stageNumber("stageId", ctx.pathParam("stageId"));
        int stageAttempt = stageNumber("stageAttemptId", ctx.pathParam("stageAttemptId"));
        TimelineQuery.Result r = query.load(appId, attemptId, stageId, stageAttempt);
        String app = appId + (attemptId == null ? "" : " attempt " + attemptId);
        return switch (r.outcome()) {
            case NO_APPLICATION -> throw WebException.notFound("no application " + app + " in the database");
            case NO_STAGE -> throw WebException.notFound("no stage " + stageId + "." + stageAttempt
                    + " (stage id . attempt) in application " + app);
            case FOUND -> new Loaded(r.data(), layout(r.data()));
        };
    }

    public static TaskTimeline layout(StageTimelineData d) {
        SparkSettings conf = new SparkSettings(new AppConfig(d.sparkConf(), Map.of(), Map.of(), Map.of()));
        List<ExecutorSlots> executors = new ArrayList<>(d.executors().size());
        for (StageTimelineData.ExecutorRow e : d.executors()) {
            executors.add(new ExecutorSlots(e.executorId(), e.host(),
                    ExecutorSlots.slots(e.executorId(), e.totalCores(), conf), e.addTime(), e.removeTime()));
        }
        return TaskTimeline.build(d.stageId(), d.stageAttemptId(), d.tasks(), d.endedTasks(), detail(d), executors);
    }

    /** As stored; for a stage written before V4, the rule {@link io.sparkscope.core.model.StageSummary} applies. */
    public static TaskDetail detail(StageTimelineData d) {
        if (d.taskDetail() != null) {
            return TaskDetail.valueOf(d.taskDetail());
        }
        return d.tasks().size() < d.endedTasks() ? TaskDetail.SLOWEST : TaskDetail.ALL;
    }

    private static int stageNumber(String name, String raw) {
        if (raw == null || !STAGE_NUMBER.matcher(raw).matches()) {
            throw WebException.badParam(name, "'" + (raw == null ? "" : raw)
                    + "' is not a stage " + (name.equals("stageId") ? "id" : "attempt id") + " (a whole number ≥ 0)");
        }
        return Integer.parseInt(raw);
    }
}
