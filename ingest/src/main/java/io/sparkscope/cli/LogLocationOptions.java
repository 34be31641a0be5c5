package io.sparkscope.cli;

import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.eventlog.LogLocations;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where event logs are read from: local paths or URIs ({@code file:}, {@code hdfs:}, {@code s3a:}, {@code abfs:},
 * {@code gs:}, through Hadoop's client when its jar is on the classpath), and {@code --hadoop-conf key=value}
 * for that client, the way Spark users pass {@code spark.hadoop.*} settings.
 */
public final class LogLocationOptions {
    @Option(names = "--hadoop-conf", paramLabel = "<key=value>",
            description = "A Hadoop setting for reading hdfs:, s3a:, abfs:, gs: URIs (repeatable; a spark.hadoop. "
                    + "prefix is dropped), on top of core-site.xml and hdfs-site.xml in HADOOP_CONF_DIR (and, in the "
                    + "archive import, of Spark's spark.hadoop.* settings); for serve, only with --watch.")
    Map<String, String> hadoopConf = new LinkedHashMap<>();

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * {@code --decode-threads}: set for the whole process (a system property), since the logs are read deep inside
     * the import, the watcher and the archive import's local tasks alike.
     */
    @Option(names = "--decode-threads", paramLabel = "N",
            description = "Threads decoding each event log's lines while one thread folds them in the log's order "
                    + "(default: the available processors, or 1 under a heap below 128 MiB; 1: the reading thread "
                    + "alone). The results are the same whatever the count; for serve, only with --watch.")
    void decodeThreads(int threads) {
        if (threads < 1 || threads > 256) {
            throw new CommandLine.ParameterException(command.commandLine(),
                    "--decode-threads must be from 1 to 256, got " + threads);
        }
        System.setProperty(EventLogReader.DECODE_THREADS_PROPERTY, Integer.toString(threads));
    }

    /** The location as a path; a one-line usage error (credentials masked) when it cannot be opened. */
    /** The {@code --hadoop-conf} settings, in the order given. */
    public Map<String, String> hadoopConf() {
        return hadoopConf;
    }

    public Path resolve(String location) {
        try {
            return LogLocations.resolve(location, hadoopConf);
        } catch (EventLogException e) {
            throw new UsageError(e.getMessage());
        }
    }

    /** Every event log under the locations, in order; a usage error for the first one that cannot be read. */
    public List<EventLogSource> discover(List<String> locations) {
        // a log reached through two locations (each file of a Databricks rollover gives the whole rollover) once
        Set<EventLogSource> sources = new LinkedHashSet<>();
        for (String location : locations) {
            Path p = resolve(location);
            try {
                sources.addAll(EventLogReader.discover(p));
            } catch (EventLogException e) {
                throw new UsageError(LogLocations.mask(e.getMessage()));
            }
        }
        return List.copyOf(sources);
    }
}
