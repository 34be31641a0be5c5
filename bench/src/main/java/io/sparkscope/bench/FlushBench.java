package io.sparkscope.bench;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.WindowedDiagnosis;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.StoreDataSources;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Work per flush of a long-running application: a listener's recorder (window of 1 000) after 1 000, 10 000 and
 * 100 000 completed one-task SQL jobs (one stage each), all written to PostgreSQL through the ingest service as the
 * listener writes them (a flush every 500 jobs); then the time of one more flush after 10 new jobs: the recorder's
 * snapshots, the heuristics, and the write, and the bytes of what is written (its snapshot JSON). With
 * {@code --before}, the same with what the listener did before: no window, and every flush the whole application.
 * Not a test: {@code bench/flush-bench.sh}, docs/benchmarks/long-running-drivers.md.
 *
 * <pre>java ... io.sparkscope.bench.FlushBench JDBC_URL USER PASSWORD [--before] [sizes, e.g. 1000,10000,100000]</pre>
 */
public final class FlushBench {
    private static final long START = 1_700_000_000_000L;
    private static final int FLUSH_EVERY = 500;
    private static final int MEASURED = 9;

    private FlushBench() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        String password = args[2];
        boolean before = List.of(args).contains("--before");
        String sizes = "1000,10000,100000";
        for (int i = 3; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                sizes = args[i];
            }
        }
        DataSource ds = StoreDataSources.pooled(url, user, password, 2, 5_000);
        SchemaManager.migrate(ds);
        Diagnoser diagnoser = Diagnoser.defaults();
        System.out.printf(Locale.ROOT, "%-10s %-9s %12s %12s %12s %12s %12s %10s%n", "mode", "stages", "snapshot ms",
                "heuristics ms", "write ms", "flush ms", "bytes", "entities");
        for (String size : sizes.split(",")) {
            int jobs = Integer.parseInt(size.trim());
            measure(ds, diagnoser, jobs, before);
        }
    }

    private static void measure(DataSource ds, Diagnoser diagnoser, int jobs, boolean before) {
        RecorderOptions options = before ? RecorderOptions.DEFAULTS
                : RecorderOptions.DEFAULTS.withWindow(1000, 1000, 1000);
        Recorder r = new Recorder(options);
        WindowedDiagnosis diagnosis = new WindowedDiagnosis(diagnoser::diagnose);
        r.setEvictionListener(diagnosis);
        IngestService ingest = IngestService.builder(ds).build();
        String appId = "flush-bench-" + (before ? "before-" : "") + jobs + "-" + System.nanoTime();
        r.onEvent(new SparkEvent.ApplicationStart("flush-bench", appId, null, START, "bench"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(), Map.of()));
        Feeder feed = new Feeder();
        for (int i = 0; i < jobs; i++) {
            feed.job(r, i);
            if ((i + 1) % FLUSH_EVERY == 0) {
                flush(r, diagnosis, ingest, before);
            }
        }
        flush(r, diagnosis, ingest, before);
        List<double[]> runs = new ArrayList<>();
        for (int m = 0; m < MEASURED; m++) {
            for (int k = 0; k < 10; k++) {
                feed.job(r, jobs + m * 10 + k);
            }
            runs.add(flush(r, diagnosis, ingest, before));
        }
        double[] med = new double[6];
        for (int c = 0; c < med.length; c++) {
            List<Double> col = new ArrayList<>();
            for (double[] run : runs) {
                col.add(run[c]);
            }
            col.sort(null);
            med[c] = col.get(col.size() / 2);
        }
        System.out.printf(Locale.ROOT, "%-10s %-9d %12.1f %12.1f %12.1f %12.1f %12.0f %10.0f%n",
                before ? "before" : "changed", jobs, med[0], med[1], med[2], med[0] + med[1] + med[2], med[3], med[4]);
    }

    /** One flush as the listener's: snapshots, heuristics, write; returns ms, ms, ms, bytes, entities. */
    private static double[] flush(Recorder r, WindowedDiagnosis diagnosis, IngestService ingest, boolean before) {
        long t0 = System.nanoTime();
        AppSnapshot toWrite;
        AppSnapshot retained;
        if (before) {
            retained = r.snapshot(false);
            toWrite = retained;
        } else {
            Recorder.Snapshots s = r.snapshots(false);
            retained = s.retained();
            toWrite = s.changed();
        }
        long t1 = System.nanoTime();
        List<Finding> findings = diagnosis.diagnose(retained);
        long t2 = System.nanoTime();
        IngestResult result = ingest.ingest(toWrite, findings);
        long t3 = System.nanoTime();
        if (result.outcome() == IngestResult.Outcome.FAILED
                || result.outcome() == IngestResult.Outcome.DATABASE_UNAVAILABLE) {
            throw new IllegalStateException("write failed: " + result.reason());
        }
        r.written(toWrite.eventCount());
        int bytes;
        try {
            bytes = SnapshotCodec.toJson(toWrite).length();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        int entities = toWrite.jobs().size() + toWrite.stages().size() + toWrite.sqlExecutions().size();
        return new double[]{(t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, bytes, entities, 0};
    }

    /** One-task SQL jobs, one stage each, 10 ms apart. */
    private static final class Feeder {
        private long taskId;

        void job(Recorder r, int i) {
            long t = START + i * 10L;
            r.onEvent(new SparkEvent.SqlExecutionStart(i, "query " + (i % 7), "== Physical Plan ==\nRange (0, 4)",
                    null, t));
            StageInfo pending = new StageInfo(i, 0, "collect at Bench.java:1", 1, List.of(), "details", -1, -1,
                    null, List.of());
            r.onEvent(new SparkEvent.JobStart(i, t + 1, List.of(i), List.of(pending),
                    Map.of("spark.sql.execution.id", Integer.toString(i), "spark.jobGroup.id", "group-" + (i % 5))));
            r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(i, 0, pending.name(), 1, List.of(), "details",
                    t + 2, -1, null, List.of())));
            long id = taskId++;
            r.onEvent(new SparkEvent.TaskStart(i, 0, new TaskInfo(id, 0, 0, 0, t + 2, "driver", "localhost",
                    "PROCESS_LOCAL", false, 0, 0, false, false)));
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 3)
                    .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 1).set(TaskMetric.RESULT_SIZE, 1500).build();
            r.onEvent(new SparkEvent.TaskEnd(i, 0, "ResultTask", TaskEndReason.SUCCESS, new TaskInfo(id, 0, 0, 0,
                    t + 2, "driver", "localhost", "PROCESS_LOCAL", false, 0, t + 6, false, false), m));
            r.onEvent(new SparkEvent.StageCompleted(new StageInfo(i, 0, pending.name(), 1, List.of(), "details",
                    t + 2, t + 7, null, List.of())));
            r.onEvent(new SparkEvent.JobEnd(i, t + 8, true, null));
            r.onEvent(new SparkEvent.SqlExecutionEnd(i, t + 9, null));
        }
    }
}
