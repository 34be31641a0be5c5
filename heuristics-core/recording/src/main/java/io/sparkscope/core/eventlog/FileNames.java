package io.sparkscope.core.eventlog;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Spark's event-log file naming: {@code <name>[.<codec>][.inprogress]}, rolling parts and markers. */
final class FileNames {
    static final String IN_PROGRESS = ".inprogress";
    /** Spark's event-log compaction appends this to a rolled part it rewrote (3.0+). */
    static final String COMPACT = ".compact";
    static final String ROLLING_DIR_PREFIX = "eventlog_v2_";
    static final String APP_STATUS_PREFIX = "appstatus_";

    private static final Pattern ROLLING_PART = Pattern.compile("events_(\\d+)_.*");
    /**
     * Databricks writes a long-running application's log as rollover files in one directory: the current one is
     * {@code eventlog}, each earlier one is renamed (and compressed) to {@code eventlog-YYYY-MM-DD--HH-MM.gz}.
     */
    static final String DATABRICKS_CURRENT = "eventlog";
    private static final Pattern DATABRICKS_ROLLOVER =
            Pattern.compile("eventlog-(\\d{4}-\\d{2}-\\d{2}--\\d{2}-\\d{2})(\\.[A-Za-z0-9]+)?");

    private FileNames() {
    }

    /**
     * @param codec      codec short name from the suffix, or null
     * @param inProgress ends with {@code .inprogress}
     * @param compact    ends with {@code .compact} (a compacted rolling part)
     */
    record Parsed(String codec, boolean inProgress, boolean compact) {
    }

    static Parsed parse(String fileName) {
        String name = fileName;
        boolean inProgress = false;
        boolean compact = false;
        if (name.endsWith(IN_PROGRESS)) {
            inProgress = true;
            name = name.substring(0, name.length() - IN_PROGRESS.length());
        }
        if (name.endsWith(COMPACT)) {
            compact = true;
            name = name.substring(0, name.length() - COMPACT.length());
        }
        String codec = null;
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            codec = Codec.shortNameOf(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        }
        return new Parsed(codec, inProgress, compact);
    }

    /** The {@code <n>} of {@code events_<n>_<appId>…}, or -1 when the name is not a rolling part. */
    static long rollingIndex(String fileName) {
        Matcher m = ROLLING_PART.matcher(fileName);
        if (!m.matches()) {
            return -1;
        }
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * A name shaped like a rolling part whose {@code <n>} is past what a long holds: no Spark wrote it (the
     * number is a long there too), so it is a damaged or made-up name, skipped with a warning.
     */
    static boolean isOverflowingRollingPart(String fileName) {
        Matcher m = ROLLING_PART.matcher(fileName);
        return m.matches() && rollingIndex(fileName) < 0;
    }

    /**
     * Where a file stands in a Databricks rollover: the time its name carries ({@code YYYY-MM-DD--HH-MM}, which
     * sorts as text) for an earlier rollover, {@code "~"} (after every time) for the current {@code eventlog}, null
     * when the name is neither.
     */
    static String databricksRolloverKey(String fileName) {
        if (fileName.equals(DATABRICKS_CURRENT)) {
            return "~";
        }
        Matcher m = DATABRICKS_ROLLOVER.matcher(fileName);
        return m.matches() ? m.group(1) : null;
    }

    static boolean isRollingDir(String dirName) {
        return dirName.startsWith(ROLLING_DIR_PREFIX);
    }

    /** Files that are never event logs, skipped without a warning. */
    static boolean isObviousNonLog(String fileName) {
        return fileName.startsWith(".") || fileName.startsWith("_") || fileName.endsWith(".crc")
                || fileName.startsWith(APP_STATUS_PREFIX);
    }
}
