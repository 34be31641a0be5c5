package io.sparkscope.core.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * A {@link SyntheticLog} written the way Databricks writes a long-running application: three rollover files in one
 * directory, the two earlier ones renamed to {@code eventlog-YYYY-MM-DD--HH-MM.gz} and gzip-compressed, the current
 * one {@code eventlog}; each starts with a {@code DBCEventLoggingListenerMetadata} line (Spark version, rollover
 * number) and none has a SparkListenerLogStart. The cuts fall inside a stage, between a task's start and its end.
 */
public final class DatabricksRollover {
    public static final String SPARK_VERSION = "3.1.2";
    /** In time order; by name, the current {@code eventlog} sorts first. */
    public static final List<String> NAMES = List.of("eventlog-2022-01-14--23-00.gz", "eventlog-2022-01-15--00-00.gz",
            "eventlog");

    private DatabricksRollover() {
    }

    /** Writes {@code app} into {@code dir} (created if needed) as three rollover files; returns them in time order. */
    public static List<Path> write(Path dir, SyntheticLog app) throws IOException {
        Files.createDirectories(dir);
        List<String> lines = new ArrayList<>();
        for (Iterator<String> it = app.lines(); it.hasNext(); ) {
            String line = it.next();
            if (!line.startsWith("{\"Event\":\"SparkListenerLogStart\"")) { // Databricks writes none
                lines.add(line);
            }
        }
        int third = lines.size() / 3;
        List<List<String>> parts = List.of(lines.subList(0, third), lines.subList(third, 2 * third),
                lines.subList(2 * third, lines.size()));
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Path file = dir.resolve(NAMES.get(i));
            try (OutputStream raw = Files.newOutputStream(file);
                 OutputStream out = NAMES.get(i).endsWith(".gz") ? new GZIPOutputStream(raw) : raw) {
                StringBuilder text = new StringBuilder(metadata(i)).append('\n');
                for (String line : parts.get(i)) {
                    text.append(line).append('\n');
                }
                out.write(text.toString().getBytes(StandardCharsets.UTF_8));
            }
            files.add(file);
        }
        return files;
    }

    /** The line Databricks writes first in rollover file {@code n}. */
    public static String metadata(int n) {
        return "{\"Event\":\"DBCEventLoggingListenerMetadata\",\"Spark Version\":\"" + SPARK_VERSION
                + "\",\"Timestamp\":" + (1_642_179_498_548L + n * 3_600_000L) + ",\"Rollover Number\":" + n
                + ",\"SparkContext Id\":3987391921526261116}";
    }
}
