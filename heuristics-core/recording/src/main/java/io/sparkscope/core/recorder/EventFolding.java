package io.sparkscope.core.recorder;

import io.sparkscope.core.redact.Redactor;
import io.sparkscope.core.event.SparkEvent.ApplicationEnd;
import io.sparkscope.core.event.SparkEvent.ApplicationStart;
import io.sparkscope.core.event.SparkEvent.EnvironmentUpdate;
import io.sparkscope.core.event.SparkEvent.LogStart;
import io.sparkscope.core.event.SparkEvent.Unknown;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One application attempt as events fold into it, the way Spark's {@code AppStatusListener} folds listener events
 * into its live entities: here the application's own facts (id, name, times, configuration, the driver's GC time and
 * memory) and the event clock every entity's change is marked with, and one part per kind of live entity, each with
 * the handlers of its events: {@link ExecutorEvents}, {@link StageEvents} (jobs, stages and their tasks),
 * {@link SqlEvents}, {@link StreamingEvents}, and the {@link TaskValueBudgets} of completed stages. {@link Recorder}
 * decides which handler an event goes to; {@link RetentionWindow} lets old entities go and {@link SnapshotAssembler}
 * takes pictures of what is here. The handlers hold Spark's rules for odd input (repeated lines, events out of order,
 * ids never announced).
 *
 * <p>Fields are package-private so that the parts, the window and the assembler read the same entities without
 * copies; only the parts change them, apart from the window removing what leaves.
 */
final class EventFolding {
    private static final Pattern LOCAL_MASTER = Pattern.compile("local(?:-cluster)?\\[(\\d+|\\*)(?:,\\s*\\d+)?]");

    final double[] quantiles;

    String appId;
    String attemptId;
    String appName;
    String sparkUser;
    String sparkVersion;
    long startTime = -1;
    long endTime = -1;
    /** The newest time any event carried: the application's clock. */
    long lastEventTime = -1;
    boolean complete;
    /** An ApplicationStart or ApplicationEnd was seen: the id will not come later (see appIdOrPlaceholder). */
    private boolean announced;
    AppConfig config = AppConfig.EMPTY;
    long driverGcTimeMs = -1;
    long driverMaxMemory = -1;
    /** Events applied so far: each entity marks its changes with it ({@link LiveEntity#changedAt}). */
    long eventCount;
    final Map<String, Long> unknownEventTypes = new TreeMap<>();
    /** Event count when the configuration last changed. */
    long configChange;

    final ExecutorEvents executorEvents;
    final SqlEvents sqlEvents;
    final StreamingEvents streamingEvents;
    final TaskValueBudgets budgets;
    final StageEvents stageEvents;

    /** Set once, right after construction: the window and this class each need the other. */
    RetentionWindow window;

    EventFolding(RecorderOptions options, StreamingLimits streamingLimits) {
        this.quantiles = options.computedQuantiles();
        this.executorEvents = new ExecutorEvents(this);
        this.sqlEvents = new SqlEvents(this);
        this.streamingEvents = new StreamingEvents(this, streamingLimits);
        this.budgets = new TaskValueBudgets(options, quantiles);
        this.stageEvents = new StageEvents(this, options, executorEvents, sqlEvents, budgets);
    }

    /**
     * Spark's id; for events that announced the application (its start or end event) without naming it, a damaged
     * or very old log, {@link AppSnapshot#UNKNOWN_APP_ID}{@code -<start time>} ({@code unknown-app} without a start
     * time), so that it can be stored and shown under an id that says it is a placeholder. Readers that know better
     * (a log's file name holds the id) replace it ({@link AppSnapshot#withAppId}). Before either event the id stays
     * null: a live listener's snapshot taken before the application started is not one to store.
     */
    String appIdOrPlaceholder() {
        if (appId != null && !appId.isBlank()) {
            return appId;
        }
        if (!announced) {
            return null;
        }
        return startTime > 0 ? AppSnapshot.UNKNOWN_APP_ID + "-" + startTime : AppSnapshot.UNKNOWN_APP_ID;
    }

    /** An event carried {@code time}: the application's clock moves on to it if it is newer. */
    void seen(long time) {
        if (time > lastEventTime) {
            lastEventTime = time;
        }
    }

    /**
     * A second ApplicationStart replaces the first, as in Spark, except that a value it lacks (no id, no time) does
     * not erase one already known.
     */
    void onApplicationStart(ApplicationStart e) {
        announced = true;
        if (e.appName() != null) {
            appName = e.appName();
        }
        if (e.appId() != null && !e.appId().isBlank()) {
            appId = e.appId();
            attemptId = e.attemptId();
        } else if (e.attemptId() != null) {
            attemptId = e.attemptId();
        }
        if (e.sparkUser() != null) {
            sparkUser = e.sparkUser();
        }
        if (e.time() > 0) {
            startTime = e.time();
        }
        seen(e.time());
    }

    void onApplicationEnd(ApplicationEnd e) {
        announced = true;
        endTime = e.time() > 0 ? e.time() : -1;
        complete = true;
        seen(e.time());
    }

    void onLogStart(LogStart e) {
        sparkVersion = e.sparkVersion();
    }

    void onEnvironmentUpdate(EnvironmentUpdate e) {
        Redactor redactor = Redactor.forSparkProperties(e.sparkProperties());
        config = new AppConfig(redactor.redact(e.sparkProperties()), redactor.redact(e.jvmInformation()),
                redactor.redact(e.systemProperties()), redactor.redact(e.hadoopProperties()));
        // A local-mode driver runs the tasks; its cores come from the master URL when no ExecutorAdded says so.
        configChange = eventCount;
        LiveExecutor driver = executorEvents.executors.get("driver");
        if (driver != null && driver.totalCores == 0) {
            driver.totalCores = localCores();
            driver.changedAt(eventCount);
        }
    }

    /** The cores of a local-mode driver, from the master URL ("local[4]"); 0 when it says none. */
    int localCores() {
        String master = config.sparkProperties().get("spark.master");
        if (master == null) {
            return 0;
        }
        Matcher m = LOCAL_MASTER.matcher(master);
        if (m.matches()) {
            if ("*".equals(m.group(1))) {
                return 0;
            }
            try {
                return Integer.parseInt(m.group(1));
            } catch (NumberFormatException tooLarge) {
                return 0; // "local[99999999999]" is no core count we can use
            }
        }
        return "local".equals(master) ? 1 : 0;
    }

    /** The driver's GC time since its JVM started, from a sample of its metrics (-1: not measured). */
    void driverGc(long gc) {
        if (gc >= 0) {
            driverGcTimeMs = Math.max(driverGcTimeMs, gc);
        }
    }

    void onUnknown(Unknown e) {
        unknownEventTypes.merge(e.type(), 1L, Long::sum);
    }
}
