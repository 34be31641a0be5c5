package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.json.SnapshotCodec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Local holding place for snapshots the database could not take. One file per application attempt, replaced by
 * each newer snapshot (a snapshot is the whole state so far), so the spool grows with applications, not events.
 * Bounded by {@code maxBytes}; past it a snapshot is dropped and the caller is told how many bytes.
 */
public final class Spool {
    public static final String SUFFIX = ".snapshot.json.gz";

    private final Path dir;
    private final long maxBytes;

    public Spool(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    public Path dir() {
        return dir;
    }

    /** File name of an application attempt: only safe characters, so an app id can never escape the folder. */
    public static String fileName(String appId, String attemptId) {
        String key = (appId == null ? "unknown" : appId) + (attemptId == null ? "" : "_" + attemptId);
        return key.replaceAll("[^A-Za-z0-9._-]", "_") + SUFFIX;
    }

    /**
     * Saves the snapshot, replacing an older one of the same attempt.
     *
     * @return 0 when saved, else the bytes that did not fit and were dropped
     */
    public long save(AppSnapshot snapshot) throws IOException {
        Files.createDirectories(dir);
        Path target = dir.resolve(fileName(snapshot.appId(), snapshot.attemptId()));
        Path tmp = Files.createTempFile(dir, ".spool", ".tmp");
        try {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(tmp))) {
                SnapshotCodec.write(snapshot, out);
            }
            long size = Files.size(tmp);
            long others = usedBytes() - (Files.exists(target) ? Files.size(target) : 0) - size;
            if (others + size > maxBytes) {
                return size;
            }
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return 0;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    public void remove(AppSnapshot snapshot) throws IOException {
        Files.deleteIfExists(dir.resolve(fileName(snapshot.appId(), snapshot.attemptId())));
    }

    public List<Path> files() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return new ArrayList<>(s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList());
        }
    }

    public static AppSnapshot load(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return SnapshotCodec.read(in);
        }
    }

    private long usedBytes() throws IOException {
        long n = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    n += Files.size(p);
                }
            }
        }
        return n;
    }
}
