package io.sparkscope.hadoop;

import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.LogFileSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.util.VersionInfo;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Event logs on any filesystem Hadoop's client reads: {@code hdfs:}, {@code s3a:} (with hadoop-aws), {@code abfs:}
 * (hadoop-azure), {@code gs:} (gcs-connector), {@code file:}, {@code viewfs:} and the rest, configured as Spark
 * configures it ({@link HadoopSettings}). Found by {@link java.util.ServiceLoader} when sparkscope-hadoop.jar is on
 * the classpath.
 */
public final class HadoopLogFileSystem implements LogFileSystem {
    /** One open filesystem per store and settings: a watcher's scans and an import's logs reuse it. */
    private static final Map<Key, HadoopFileSystemView> OPEN = new ConcurrentHashMap<>();

    private record Key(URI root, Map<String, String> settings) {
    }

    @Override
    public String name() {
        return "Hadoop " + VersionInfo.getVersion();
    }

    @Override
    public boolean handles(String scheme) {
        return true; // Hadoop decides, and says which connector is missing
    }

    @Override
    public Path open(URI location, Map<String, String> settings) throws EventLogException {
        Configuration conf = HadoopSettings.configuration(settings);
        Masker masker = Masker.of(conf);
        String shown = masker.mask(location.toString());
        if (location.getRawUserInfo() != null) {
            // Hadoop refuses them too, after logging the URI as given; it never gets to see this one
            throw new EventLogException(shown + ": credentials in the URI are not supported; give them as Hadoop "
                    + "settings (--hadoop-conf, core-site.xml) or through a credentials provider");
        }
        URI root;
        try {
            root = new URI(location.getScheme().toLowerCase(Locale.ROOT), location.getAuthority(), "/", null, null);
        } catch (URISyntaxException e) {
            throw new EventLogException(shown + ": not a valid URI (" + masker.mask(e.getMessage()) + ")");
        }
        HadoopFileSystemView view;
        try {
            view = view(root, settings, conf, masker);
        } catch (UnsupportedFileSystemException e) {
            throw new EventLogException(shown + ": no Hadoop filesystem for the scheme \"" + root.getScheme()
                    + "\" on the classpath" + connectorHint(root.getScheme()));
        } catch (IOException | RuntimeException e) {
            throw new EventLogException(shown + ": " + describe(e, masker, root.getScheme()));
        } catch (LinkageError e) {
            throw new EventLogException(shown + ": " + missingClass(e, root.getScheme()));
        }
        HadoopPath path = HadoopPath.parse(view, location.getPath() == null || location.getPath().isEmpty() ? "/"
                : location.getPath());
        FileStatus status;
        try {
            status = view.hadoop().getFileStatus(path.hadoop());
        } catch (FileNotFoundException e) {
            throw new EventLogException(shown + ": no such file or directory");
        } catch (IOException | RuntimeException e) {
            throw new EventLogException(shown + ": " + describe(e, masker, root.getScheme()));
        } catch (LinkageError e) {
            throw new EventLogException(shown + ": " + missingClass(e, root.getScheme()));
        }
        HadoopPath found = HadoopPath.of(view, status);
        try {
            view.provider().checkAccess(found, java.nio.file.AccessMode.READ);
        } catch (AccessDeniedException e) {
            throw new EventLogException(shown + ": not readable (permission denied"
                    + (e.getReason() == null ? "" : ": " + e.getReason()) + ")");
        } catch (IOException e) {
            throw new EventLogException(shown + ": " + e.getMessage());
        }
        return found;
    }

    private static HadoopFileSystemView view(URI root, Map<String, String> settings, Configuration conf, Masker masker)
            throws IOException {
        Key key = new Key(root, Map.copyOf(settings));
        HadoopFileSystemView open = OPEN.get(key);
        if (open != null) {
            return open;
        }
        // newInstance, not get: Hadoop's cache is keyed by scheme, authority and user, not by our settings
        FileSystem fs = FileSystem.newInstance(root, conf);
        HadoopFileSystemView view = new HadoopFileSystemView(fs, root, masker);
        HadoopFileSystemView raced = OPEN.putIfAbsent(key, view);
        if (raced != null) {
            fs.close();
            return raced;
        }
        return view;
    }

    private static String describe(Throwable e, Masker masker, String scheme) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof LinkageError linkage) {
                return missingClass(linkage, scheme);
            }
        }
        String reason = HadoopErrors.reason(e, masker);
        if (HadoopErrors.denied(e)) {
            return reason.toLowerCase(Locale.ROOT).contains("denied") ? reason : "permission denied: " + reason;
        }
        if (HadoopErrors.unreachable(e)) {
            return reason.toLowerCase(Locale.ROOT).startsWith("cannot reach") ? reason
                    : "cannot reach the filesystem: " + reason;
        }
        return reason;
    }

    /**
     * A connector whose own dependencies are not on the classpath fails with a {@link NoClassDefFoundError} (hadoop-aws
     * needs commons-lang3, which Hadoop's shaded client jars do not bring): said as the jar to add, in one line.
     */
    static String missingClass(LinkageError e, String scheme) {
        String missing = null;
        for (Throwable t = e; t != null && missing == null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NoClassDefFoundError || t instanceof ClassNotFoundException) {
                missing = t.getMessage();
            }
        }
        if (missing == null) {
            return "the Hadoop connector for \"" + scheme + "\" does not fit the classes on the classpath ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
        }
        String className = missing.replace('/', '.').strip();
        return "the Hadoop connector for \"" + scheme + "\" needs the class " + className + ", which is not on the "
                + "classpath; add " + jarOf(className);
    }

    /** The jar that holds a class a connector commonly misses. */
    static String jarOf(String className) {
        if (className.startsWith("org.apache.commons.lang3.")) {
            return "commons-lang3 (e.g. commons-lang3-3.12.0.jar, the version of the Hadoop client's)";
        }
        if (className.startsWith("software.amazon.awssdk.")) {
            return "the AWS SDK v2 bundle (bundle-2.x.jar, the version hadoop-aws was built with)";
        }
        if (className.startsWith("org.apache.hadoop.fs.s3a.")) {
            return "hadoop-aws (the Hadoop client's version)";
        }
        if (className.startsWith("org.wildfly.openssl.")) {
            return "wildfly-openssl, or set fs.s3a.ssl.channel.mode=default_jsse";
        }
        return "the jar that holds it";
    }

    /** Which jar brings a scheme's filesystem. */
    static String connectorHint(String scheme) {
        return switch (scheme) {
            case "s3a", "s3", "s3n" -> "; add hadoop-aws (the Hadoop client's version) and the AWS SDK v2 bundle";
            case "abfs", "abfss", "wasb", "wasbs" -> "; add hadoop-azure (the Hadoop client's version)";
            case "gs" -> "; add Google's gcs-connector (its hadoop3 shaded jar)";
            default -> "";
        };
    }

    /** Closes the filesystems opened so far (tests; a command line just exits). */
    public static void closeAll() {
        for (HadoopFileSystemView v : OPEN.values()) {
            try {
                v.close();
            } catch (IOException ignored) {
                // closing at the end: nothing left to do with it
            }
        }
        OPEN.clear();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HadoopLogFileSystem;
    }

    @Override
    public int hashCode() {
        return Objects.hash(HadoopLogFileSystem.class);
    }
}
