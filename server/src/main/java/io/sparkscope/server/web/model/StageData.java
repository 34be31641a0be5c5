package io.sparkscope.server.web.model;

import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.AppTimelineQuery;
import io.sparkscope.store.query.StagePageQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.stream.Collectors;

/**
 * What the stage page and the application timeline read: one store query each, and a 404 that names what is not
 * stored (the application, the stage, or the attempt with the attempts that are).
 */
public final class StageData {
    private final StagePageQuery stages;
    private final AppTimelineQuery timelines;

    public StageData(DataSource dataSource) {
        this.stages = new StagePageQuery(dataSource);
        this.timelines = new AppTimelineQuery(dataSource);
    }

    public StagePageQuery.Page stage(AppDetailQuery.Ref ref, int stageId, int stageAttemptId) throws SQLException {
        StagePageQuery.Result r = stages.load(ref.appId(), ref.attemptId(), stageId, stageAttemptId);
        return switch (r.outcome()) {
            case NO_APPLICATION -> throw noApp(ref);
            case NO_STAGE -> throw WebException.notFound("no stage " + stageId + " in application " + shown(ref)
                    + " (its stage table lists the stored stages)");
            case NO_ATTEMPT -> throw WebException.notFound("no attempt " + stageAttemptId + " of stage " + stageId
                    + " in application " + shown(ref) + "; stored attempts: " + r.attempts().stream()
                    .map(String::valueOf).collect(Collectors.joining(", ")));
            case FOUND -> r.page();
        };
    }

    public AppTimelineQuery.Data timeline(AppDetailQuery.Ref ref) throws SQLException {
        return timelines.load(ref.appId(), ref.attemptId()).orElseThrow(() -> noApp(ref));
    }

    private static String shown(AppDetailQuery.Ref ref) {
        return ref.appId() + (ref.attemptId() == null ? "" : " attempt " + ref.attemptId());
    }

    private static WebException noApp(AppDetailQuery.Ref ref) {
        return WebException.notFound("no application " + shown(ref) + " in the database");
    }
}
