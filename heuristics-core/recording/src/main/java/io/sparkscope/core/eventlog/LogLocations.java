package io.sparkscope.core.eventlog;

import io.sparkscope.core.redact.SecretShapes;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/**
 * Turns what a user types for a log location into a {@link Path}: a local path as it is, a URI
 * ({@code file:/…}, {@code hdfs://nn/…}, {@code s3a://bucket/…}, …) through a {@link LogFileSystem} on the classpath.
 * A {@code file:} URI is read through that filesystem too when one is there (Hadoop's local filesystem, as Spark
 * reads it), and from the local disk otherwise.
 */
public final class LogLocations {
    /** {@code scheme:/…}: a scheme of two letters or more (so {@code C:\logs} stays a path), then a slash. */
    private static final Pattern URI_LIKE = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:/.*", Pattern.DOTALL);
    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]+@");

    private LogLocations() {
    }

    /** Whether the text is a URI with a scheme rather than a local path. */
    public static boolean isUri(String location) {
        return location != null && URI_LIKE.matcher(location).matches();
    }

    /**
     * The path for a location typed by a user.
     *
     * @param configuration filesystem settings given on the command line (may be empty)
     * @throws EventLogException one line naming the location (credentials masked): a scheme no filesystem on the
     *                           classpath reads, an unreachable or refusing store, a missing or unreadable path
     */
    public static Path resolve(String location, Map<String, String> configuration) throws EventLogException {
        if (!isUri(location)) {
            try {
                return Path.of(location);
            } catch (InvalidPathException e) {
                throw new EventLogException(location + ": not a valid path (" + e.getReason() + ")");
            }
        }
        URI uri;
        try {
            uri = new URI(location);
        } catch (URISyntaxException e) {
            throw new EventLogException(mask(location) + ": not a valid URI (" + mask(e.getReason()) + ")");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        for (LogFileSystem fs : installed()) {
            if (fs.handles(scheme)) {
                return fs.open(uri, configuration);
            }
        }
        if (scheme.equals("file")) {
            try {
                return Path.of(uri);
            } catch (IllegalArgumentException e) {
                throw new EventLogException(mask(location) + ": not a local file URI (" + e.getMessage() + ")");
            }
        }
        throw new EventLogException(mask(location) + ": no filesystem for the scheme \"" + scheme
                + "\" on the classpath; put the Hadoop client piece (sparkscope-hadoop.jar) and the connector for "
                + scheme + ": beside sparkscope.jar (see the README, \"Logs on HDFS, S3, ABFS, GCS\")");
    }

    /** The filesystems found on the classpath, in the order the class loader lists them. */
    public static List<LogFileSystem> installed() {
        List<LogFileSystem> found = new ArrayList<>();
        ServiceLoader.load(LogFileSystem.class, LogLocations.class.getClassLoader()).forEach(found::add);
        return found;
    }

    /**
     * Text safe to print: a URI's user information ({@code s3a://KEY:SECRET@bucket}) and every credential shape the
     * redactor knows ({@code secret=…}, key ids, tokens) replaced.
     */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        String masked = USER_INFO.matcher(text).replaceAll(SecretShapes.REDACTED + "@");
        return SecretShapes.redact(masked);
    }
}
