package io.sparkscope.hadoop;

import org.apache.hadoop.conf.Configuration;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Hadoop configuration Spark users expect: {@code core-default.xml} and a {@code core-site.xml} on the classpath
 * (Hadoop's own rule), then {@code core-site.xml} and {@code hdfs-site.xml} from {@code $HADOOP_CONF_DIR} (what
 * Spark's launch scripts put on the classpath), then the command line's {@code --hadoop-conf key=value}
 * ({@code spark.hadoop.key=value} taken as {@code key=value}, as Spark does).
 *
 * <p>A command line should fail in seconds when a name node or an endpoint is not there, not after Hadoop's
 * service-sized retry budgets: unless a file or the command line sets them, connection attempts and retries are cut
 * to a few ({@link #FAIL_FAST}).
 */
public final class HadoopSettings {
    public static final String CONF_DIR_ENV = "HADOOP_CONF_DIR";
    private static final String SPARK_PREFIX = "spark.hadoop.";

    /**
     * Time-outs and retries for a command line, used where nobody set them. Connecting is not enough: a name node or
     * an object store that accepts the connection and then never answers held a command for 121 s (an RPC waits 60 s,
     * pings, waits again) and 183 s (three S3 calls of 60 s each). With these, a name node call gives up after 10 s
     * and an S3 call after 15 s (the least S3A accepts), tried once.
     */
    static final Map<String, String> FAIL_FAST = Map.ofEntries(
            Map.entry("ipc.client.connect.max.retries", "2"),
            Map.entry("ipc.client.connect.max.retries.on.timeouts", "2"),
            Map.entry("ipc.client.connect.retry.interval", "300"),
            Map.entry("ipc.client.connect.timeout", "5000"),
            // the longest one name node call may wait for its answer (0 = forever, pinging every minute)
            Map.entry("ipc.client.rpc-timeout.ms", "10000"),
            Map.entry("fs.s3a.attempts.maximum", "2"),
            // S3A will not wait less than 15 s for one call, so it is tried once (throttling keeps its own retries)
            Map.entry("fs.s3a.retry.limit", "0"),
            Map.entry("fs.s3a.retry.interval", "200ms"),
            Map.entry("fs.s3a.connection.establish.timeout", "5s"),
            // an idle socket, and one S3 call (not the reading of an object's body, which the SDK leaves out)
            Map.entry("fs.s3a.connection.timeout", "15s"),
            Map.entry("fs.s3a.connection.request.timeout", "15s"));

    private HadoopSettings() {
    }

    public static Configuration configuration(Map<String, String> commandLine) {
        return configuration(commandLine, System.getenv(CONF_DIR_ENV));
    }

    static Configuration configuration(Map<String, String> commandLine, String confDir) {
        Configuration conf = new Configuration();
        Configuration files = new Configuration(false);
        if (confDir != null && !confDir.isBlank()) {
            for (String name : new String[]{"core-site.xml", "hdfs-site.xml"}) {
                File f = new File(confDir, name);
                if (f.isFile()) {
                    conf.addResource(new org.apache.hadoop.fs.Path(f.toURI()));
                    files.addResource(new org.apache.hadoop.fs.Path(f.toURI()));
                }
            }
        }
        Map<String, String> given = normalised(commandLine);
        Configuration classpathSite = new Configuration(false);
        classpathSite.addResource("core-site.xml");
        for (Map.Entry<String, String> d : FAIL_FAST.entrySet()) {
            if (!given.containsKey(d.getKey()) && files.get(d.getKey()) == null
                    && classpathSite.get(d.getKey()) == null) {
                conf.set(d.getKey(), d.getValue());
            }
        }
        given.forEach(conf::set);
        return conf;
    }

    /** The command line's settings with Spark's {@code spark.hadoop.} prefix dropped. */
    static Map<String, String> normalised(Map<String, String> commandLine) {
        Map<String, String> out = new LinkedHashMap<>();
        if (commandLine != null) {
            commandLine.forEach((k, v) -> out.put(k.startsWith(SPARK_PREFIX) ? k.substring(SPARK_PREFIX.length()) : k,
                    v == null ? "" : v));
        }
        return out;
    }
}
