package io.sparkscope.core.eventlog;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * A filesystem that event logs can be read from besides the local disk: Hadoop's client for {@code hdfs:},
 * {@code s3a:}, {@code abfs:}, {@code gs:} and the rest, shipped as a separate jar and found with
 * {@link java.util.ServiceLoader} (the command line stays small for those who only read local files).
 *
 * <p>It hands back a {@link Path} of its own {@link java.nio.file.FileSystem}, so the reader, discovery and the
 * watcher work on it exactly as on local files, with every check they make.
 */
public interface LogFileSystem {
    /** What to call it in messages, e.g. "Hadoop 3.4.1". */
    String name();

    /** Whether this filesystem reads URIs of this scheme (lower case, e.g. {@code hdfs}). */
    boolean handles(String scheme);

    /**
     * The location as a path, checked to exist and be readable.
     *
     * @param configuration settings given on the command line (for Hadoop: {@code --hadoop-conf key=value}),
     *                      on top of those the filesystem finds itself
     * @throws EventLogException unreachable, refused, missing or not readable: one line naming the location,
     *                           credentials masked
     */
    Path open(URI location, Map<String, String> configuration) throws EventLogException;
}
