package io.sparkscope.server.web.page;

import io.javalin.http.Context;
import io.sparkscope.server.web.api.ApiJson;
import io.sparkscope.server.web.api.StagePageJson;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.model.AppTimeline;
import io.sparkscope.server.web.model.StageData;

import java.sql.SQLException;
import java.util.function.LongSupplier;

/** A stage attempt's page (and its JSON) and the application's timeline tab: parse, one data call, render. */
public final class StagePages {
    private final StageData data;
    private final LongSupplier clock;

    /** @param clock now in epoch ms: whether the application still runs, so its page updates itself */
    public StagePages(StageData data, LongSupplier clock) {
        this.data = data;
        this.clock = clock;
    }

    public void stage(Context ctx) throws SQLException {
        html(ctx, StageView.render(data.stage(Params.appRef(ctx), Params.stageNumber(ctx, "stageId"),
                Params.stageNumber(ctx, "stageAttemptId")), AppTabs.Live.of(ctx, clock)));
    }

    /** The stage page's numbers as JSON. */
    public void stageJson(Context ctx) throws SQLException {
        ctx.contentType("application/json").result(ApiJson.write(StagePageJson.of(data.stage(Params.appRef(ctx),
                Params.stageNumber(ctx, "stageId"), Params.stageNumber(ctx, "stageAttemptId")))));
    }

    public void timeline(Context ctx) throws SQLException {
        html(ctx, AppTimelineView.render(AppTimeline.of(data.timeline(Params.appRef(ctx))),
                AppTabs.Live.of(ctx, clock)));
    }

    private static void html(Context ctx, String page) {
        ctx.contentType("text/html; charset=utf-8").result(page);
    }
}
