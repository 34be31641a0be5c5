package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.HistoryQuery;
import io.sparkscope.store.query.StreamingQueries;
import io.sparkscope.store.query.TimelineQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Everything the pages and the API read from the database, one method per thing shown: each calls one query of
 * {@code io.sparkscope.store.query} (or reads a snapshot back) and answers a 404 {@link WebException} for an
 * application, stage or name that is not stored, so handlers only parse parameters, call here and present.
 */
public final class WebData {
    /** Runs of one name a history shows, newest first. */
    private static final int HISTORY_LIMIT = 500;

    private final DataSource dataSource;
    private final LongSupplier clock;
    private final AppSearchQuery search;
    private final AppDetailQuery details;
    private final DashboardQuery dashboard;
    private final HistoryQuery history;
    private final TimelineQuery timelines;
    private final SnapshotReader snapshots;
    private final StreamingQueries streaming;

    /** @param clock now in epoch ms: "running" and "last day" are judged against it */
    public WebData(DataSource dataSource, LongSupplier clock) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.search = new AppSearchQuery(dataSource);
        this.details = new AppDetailQuery(dataSource);
        this.dashboard = new DashboardQuery(dataSource);
        this.history = new HistoryQuery(dataSource);
        this.timelines = new TimelineQuery(dataSource);
        this.snapshots = new SnapshotReader(dataSource);
        this.streaming = new StreamingQueries(dataSource);
    }

    public long now() {
        return clock.getAsLong();
    }

    /** Whether the database answers at all (for {@code /healthz}). */
    public boolean reachable() {
        return HistoryQuery.reachable(dataSource);
    }

    public DashboardQuery.Dashboard dashboard() throws SQLException {
        return dashboard.load(now());
    }

    /** The matching applications with their exact count. */
    public AppSearchQuery.Result search(AppFilter filter) throws SQLException {
        return search.search(filter);
    }

    /** The matching applications, counted only up to {@code countCap} past the offset. */
    public AppSearchQuery.Result search(AppFilter filter, int countCap) throws SQLException {
        return search.search(filter, countCap);
    }

    /** One application with its configuration, stages and findings (attempt id null: its newest attempt). */
    public AppDetail app(AppDetailQuery.Ref ref) throws SQLException {
        return details.load(ref, now()).orElseThrow(() -> WebException.notFound("no application " + ref.appId()
                + (ref.attemptId() == null ? "" : " attempt " + ref.attemptId()) + " in the database"));
    }

    /**
     * The executor what-if of one application: its header (the attempt resolved as on the application page) and
     * the whole snapshot read back for the simulation.
     *
     * @param order     null for longest task first
     * @param executors counts to simulate, or null for 25 %–400 % of the run's own
     */
    public AppWhatIf whatIf(AppDetailQuery.Ref ref, TaskOrder order, List<Integer> executors) throws SQLException {
        AppHeader header = app(ref).header();
        AppSnapshot snapshot = snapshots.read(header.appId(), header.attemptId()).orElseThrow(() ->
                WebException.notFound("application " + header.pathKey() + " vanished from the database"));
        return AppWhatIf.of(header, snapshot, order == null ? TaskOrder.LONGEST_FIRST : order, executors);
    }

    /** One stage attempt's tasks laid out as a timeline. */
    public StageTimelines.Loaded timeline(AppDetailQuery.Ref ref, int stageId, int stageAttemptId) throws SQLException {
        TimelineQuery.Result r = timelines.load(ref.appId(), ref.attemptId(), stageId, stageAttemptId);
        String app = ref.appId() + (ref.attemptId() == null ? "" : " attempt " + ref.attemptId());
        return switch (r.outcome()) {
            case NO_APPLICATION -> throw WebException.notFound("no application " + app + " in the database");
            case NO_STAGE -> throw WebException.notFound("no stage " + stageId + "." + stageAttemptId
                    + " (stage id . attempt) in application " + app);
            case FOUND -> StageTimelines.Loaded.of(r.data());
        };
    }

    /** The Structured Streaming query runs of an application (empty for a batch one), without their batches. */
    public List<StreamingQuerySummary> streamingRuns(AppHeader header) throws SQLException {
        return streaming.runs(header.pk());
    }

    /** One streaming query of an application: its runs with their newest {@code maxBatches} batches each. */
    public QueryPage query(AppDetailQuery.Ref ref, String queryId, int maxBatches) throws SQLException {
        AppDetail app = app(ref);
        var runs = streaming.query(app.header().pk(), queryId, maxBatches);
        if (runs.isEmpty()) {
            throw WebException.notFound("no streaming query " + queryId + " in application " + app.header().pathKey());
        }
        return new QueryPage(app.header(), queryId, runs, QueryPage.about(queryId, app.findings()), maxBatches);
    }

    /** Two or more runs side by side; a 404 names every one that is not stored. */
    public Comparison compare(List<AppDetailQuery.Ref> refs) throws SQLException {
        AppDetailQuery.Loaded l = details.load(refs, now(), false);
        if (!l.missing().isEmpty()) {
            throw WebException.notFound("no application " + String.join(", ",
                    l.missing().stream().map(Object::toString).toList()) + " in the database");
        }
        return Comparison.of(l.apps());
    }

    /** The runs of one application name, oldest first, each marked when much slower than usual. */
    public RunHistory history(String name) throws SQLException {
        return RunHistory.of(name, history.runs(name, HISTORY_LIMIT));
    }

    /** The run time predicted for {@code inputBytes} from the stored runs of {@code name}. */
    public RunPrediction predict(String name, long inputBytes) throws SQLException {
        return RunPrediction.of(dataSource, history, name, inputBytes);
    }
}
