package io.sparkscope.ingest.fetch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unpacking the History Server's log zip: rolling log directories come out whole, nothing lands outside. */
class LogSnapshotsTest {
    private static Path zip(Path dir, String... namesAndBodies) throws IOException {
        Path zip = dir.resolve("logs.zip");
        try (OutputStream file = Files.newOutputStream(zip); ZipOutputStream out = new ZipOutputStream(file)) {
            for (int i = 0; i < namesAndBodies.length; i += 2) {
                out.putNextEntry(new ZipEntry(namesAndBodies[i]));
                out.write(namesAndBodies[i + 1].getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return zip;
    }

    @Test
    void rollingLogDirectoryIsUnpacked(@TempDir Path dir) throws IOException {
        Path target = Files.createDirectory(dir.resolve("out"));
        LogSnapshots.unzip(zip(dir, "eventlog_v2_app-1/", "", "eventlog_v2_app-1/events_1_app-1", "{}\n",
                "eventlog_v2_app-1/appstatus_app-1", ""), target);
        assertEquals("{}\n", Files.readString(target.resolve("eventlog_v2_app-1/events_1_app-1")));
        assertTrue(Files.exists(target.resolve("eventlog_v2_app-1/appstatus_app-1")));
    }

    @Test
    void entriesOutsideTheTargetAreRefused(@TempDir Path dir) throws IOException {
        Path target = Files.createDirectory(dir.resolve("out"));
        Path zip = zip(dir, "../evil", "x");
        IOException e = assertThrows(IOException.class, () -> LogSnapshots.unzip(zip, target));
        assertTrue(e.getMessage().contains("../evil"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("evil")));
    }
}
