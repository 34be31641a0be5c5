package io.sparkscope.ingest.fetch;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The event logs of one attempt from the History Server ({@code …/logs}, a zip of the attempt's log file or rolling
 * log directory) through the same reader and recorder as {@code import}: the snapshot is exactly the one importing
 * the log file would give. The zip is unpacked into a private temporary directory that is deleted afterwards.
 */
final class LogSnapshots {
    private final HistoryClient client;
    private final RecorderOptions options;
    private final Path tempRoot;

    /** @param tempRoot where temporary directories go (null: the system's temporary directory) */
    LogSnapshots(HistoryClient client, RecorderOptions options, Path tempRoot) {
        this.client = client;
        this.options = options;
        this.tempRoot = tempRoot;
    }

    AppSnapshot fetch(ListedApp app, Consumer<String> warnings) {
        Path dir = null;
        try {
            dir = tempRoot == null ? Files.createTempDirectory("sparkscope-fetch-")
                    : Files.createTempDirectory(tempRoot, "sparkscope-fetch-");
            Path zip = dir.resolve("logs.zip");
            client.download(app.apiPath() + "/logs", zip);
            Path logs = Files.createDirectory(dir.resolve("logs"));
            unzip(zip, logs);
            Files.delete(zip);
            List<EventLogSource> sources = EventLogReader.discover(logs);
            List<AppSnapshot> found = new ArrayList<>();
            for (EventLogSource source : sources) {
                EventLogAnalysis.Result r = EventLogAnalysis.analyze(source, options,
                        p -> warnings.accept(app.label() + ": " + p));
                if (r.hasApplication()) {
                    found.add(r.snapshot());
                }
            }
            return found.stream()
                    .filter(s -> app.appId().equals(s.appId()) && Objects.equals(app.attemptId(), s.attemptId()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(client.url(app.apiPath() + "/logs")
                            + " held no event log of " + app.label()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack the event logs of " + app.label() + ": " + e.getMessage(), e);
        } catch (EventLogException e) {
            throw new IllegalStateException(client.url(app.apiPath() + "/logs") + ": " + e.getMessage());
        } finally {
            if (dir != null) {
                deleteTree(dir);
            }
        }
    }

    /** Unpacks every file entry; an entry that would land outside {@code target} ("zip slip") is refused. */
    static void unzip(Path zip, Path target) throws IOException {
        Path root = target.toAbsolutePath().normalize();
        try (InputStream file = Files.newInputStream(zip); ZipInputStream in = new ZipInputStream(file)) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                Path out = root.resolve(e.getName()).normalize();
                if (!out.startsWith(root) || out.equals(root)) {
                    throw new IOException("refusing zip entry '" + e.getName() + "' outside the target directory");
                }
                if (e.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    Files.copy(in, out);
                }
            }
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // a leftover temporary file is not worth failing a fetch for
                }
            });
        } catch (IOException ignored) {
            // as above
        }
    }
}
