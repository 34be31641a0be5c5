package io.sparkscope.bench;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.history.EventLogFileReader;
import org.apache.spark.scheduler.ReplayListenerBus;
import org.apache.spark.status.AppStatusListener;
import org.apache.spark.status.AppStatusStore;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.status.StageDataWrapper;
import org.apache.spark.status.api.v1.StageData;
import org.apache.spark.status.api.v1.TaskMetricDistributions;
import org.apache.spark.util.kvstore.InMemoryStore;
import scala.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Spark's History Server does to show an application (FsHistoryProvider.rebuildAppStore with the default
 * in-memory store), followed by the stage pages' task summaries:
 * <ol>
 *   <li>ElementTrackingStore over an InMemoryStore, with {@code spark.appStateStore.asyncTracking.enable=false}
 *       as the SHS sets it for replay;</li>
 *   <li>AppStatusListener(store, conf, live = false) on a ReplayListenerBus;</li>
 *   <li>the log opened with {@link EventLogFileReader#openEventLog} (Hadoop local FS, Spark's CompressionCodec
 *       chosen by the file suffix) and replayed; {@code trackingStore.close(false)};</li>
 *   <li>{@link AppStatusStore#taskSummary} for every stage attempt in the store.</li>
 * </ol>
 * Only spark-core is on the classpath, so the SQL plugin's listener (SQLAppStatusListener) is not run: the real
 * SHS does a little more work than this.
 */
final class ShsRebuild {
    private static final FileSystem LOCAL_FS;

    static {
        try {
            LOCAL_FS = FileSystem.getLocal(new Configuration());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The result of one rebuild: the store (kept reachable for heap measurements) and the summaries. */
    record Result(InMemoryStore store, Map<String, TaskMetricDistributions> summaries, int stageAttempts) {
    }

    private ShsRebuild() {
    }

    static Result run(Path log, double[] quantiles) {
        SparkConf conf = new SparkConf(false).set("spark.appStateStore.asyncTracking.enable", "false");
        InMemoryStore kv = new InMemoryStore();
        ElementTrackingStore tracking = new ElementTrackingStore(kv, conf);
        AppStatusListener listener = new AppStatusListener(tracking, conf, false,
                Option.empty(), Option.empty());
        ReplayListenerBus bus = new ReplayListenerBus();
        bus.addListener(listener);
        org.apache.hadoop.fs.Path hPath = new org.apache.hadoop.fs.Path(log.toAbsolutePath().toUri());
        try (InputStream in = EventLogFileReader.openEventLog(hPath, LOCAL_FS)) {
            boolean ok = bus.replay(in, hPath.toString(), false, ReplayListenerBus.SELECT_ALL_FILTER());
            if (!ok) {
                throw new IllegalStateException("ReplayListenerBus could not replay " + log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        tracking.close(false);

        AppStatusStore status = new AppStatusStore(kv, Option.empty(), Option.empty());
        List<int[]> attempts = new ArrayList<>();
        for (StageDataWrapper w : kv.view(StageDataWrapper.class)) {
            StageData info = w.info();
            attempts.add(new int[] {info.stageId(), info.attemptId()});
        }
        Map<String, TaskMetricDistributions> summaries = new LinkedHashMap<>();
        for (int[] a : attempts) {
            Option<TaskMetricDistributions> d = status.taskSummary(a[0], a[1], quantiles);
            if (d.isDefined()) {
                summaries.put(a[0] + "." + a[1], d.get());
            }
        }
        return new Result(kv, summaries, attempts.size());
    }
}
