package io.sparkscope.archive;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.recorder.RecorderOptions;

import java.io.Serializable;
import java.util.Map;

/**
 * What every task needs, shipped inside the task. Holds the database password: never printed (no toString of it
 * is logged), and only as visible as Spark's own task closures.
 *
 * @param poolSize        database connections of one task: one, or two when {@code lockGroups} (the lock's own)
 * @param lockGroups      tasks run at the same time, so runs of one job are stored one at a time ({@link GroupLocks})
 * @param heuristics      threshold overrides from {@code --heuristics-config} (empty: the defaults)
 * @param heuristicsSource the file they came from, for error messages
 * @param hadoopConf      Hadoop settings for hdfs:, s3a:, … locations ({@code spark.hadoop.*} and {@code --hadoop-conf})
 */
record TaskSettings(String url, String user, String password, int poolSize, boolean lockGroups, int tasksPerStage,
                    double regressionFactor, Map<String, String> heuristics, String heuristicsSource,
                    Map<String, String> hadoopConf) implements Serializable {
    TaskSettings {
        heuristics = Map.copyOf(heuristics);
        hadoopConf = Map.copyOf(hadoopConf);
    }

    Diagnoser diagnoser() {
        return heuristics.isEmpty() ? Diagnoser.defaults() : Diagnoser.withOverrides(heuristics, heuristicsSource);
    }

    RecorderOptions recorderOptions() {
        return RecorderOptions.DEFAULTS.withTasksPerStage(tasksPerStage).withDefaultWindows();
    }

    @Override
    public String toString() {
        return "TaskSettings[" + io.sparkscope.core.eventlog.LogLocations.mask(url) + ", " + poolSize + " connection(s)]";
    }
}
