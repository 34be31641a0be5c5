package io.sparkscope.store;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.redact.Redactor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spool files carry their target database; a spool loads only its own target's and its own user's files. */
class SpoolTest {
    private static final String A = SpoolTarget.of("jdbc:postgresql://db-a:5432/sparkscope", "app");
    private static final String B = SpoolTarget.of("jdbc:postgresql://db-b:5432/sparkscope", "app");

    @Test
    void targetIsAHashOfWhereAndWhoNotOfTheSpellingOrThePassword() {
        String t = SpoolTarget.of("jdbc:postgresql://db.example.com:5432/sparkscope?user=app&password=hunter2"
                + "&connectTimeout=2&ssl=true", null);
        assertEquals(t, SpoolTarget.of("JDBC:POSTGRESQL://DB.EXAMPLE.COM/sparkscope", "app"));
        assertEquals(t, SpoolTarget.of("jdbc:postgresql://db.example.com/sparkscope?password=other", "app"));
        assertEquals(64, t.length());
        assertFalse(t.contains("hunter2") || t.contains("example"));
        assertNotEquals(t, SpoolTarget.of("jdbc:postgresql://db.example.com/other", "app"), "database");
        assertNotEquals(t, SpoolTarget.of("jdbc:postgresql://db2.example.com/sparkscope", "app"), "host");
        assertNotEquals(t, SpoolTarget.of("jdbc:postgresql://db.example.com:5433/sparkscope", "app"), "port");
        assertNotEquals(t, SpoolTarget.of("jdbc:postgresql://db.example.com/sparkscope", "bob"), "user");
        assertNotEquals(t, SpoolTarget.of("jdbc:postgresql://db.example.com/sparkscope?currentSchema=x", "app"),
                "schema");
        assertEquals(SpoolTarget.of("jdbc:postgresql://app:pw@db/x", null), SpoolTarget.of("jdbc:postgresql://db/x", "app"),
                "user-info gives the user");
    }

    @Test
    void aCreatedSpoolIsOwnerOnlyAndItsFilesRecordTheirTarget(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("spool");
        Spool a = new Spool(dir, 1 << 30, A, w -> { });
        AppSnapshot s = SnapshotBuilder.rich("app-1", null, true);
        assertEquals(0, a.save(s));
        Path file = a.files().get(0);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(A, Spool.targetOf(file));
        String head = firstLine(file);
        assertEquals("SPARKSCOPE-SPOOL 2 target=" + A, head);
        assertEquals(SnapshotCodec.toJson(s), SnapshotCodec.toJson(a.load(file)));
        a.remove(s);
        assertTrue(a.files().isEmpty());
    }

    @Test
    void anotherTargetsFilesAreLeftInPlaceWithOneWarning(@TempDir Path dir) throws Exception {
        List<String> warnings = new ArrayList<>();
        Spool a = new Spool(dir, 1 << 30, A, w -> { });
        Spool b = new Spool(dir, 1 << 30, B, warnings::add);
        a.save(SnapshotBuilder.rich("app-1", null, true));
        b.save(SnapshotBuilder.rich("app-2", null, true));
        assertEquals(1, b.files().size());
        assertEquals("app-2", b.load(b.files().get(0)).appId());
        assertEquals(1, b.files().size(), "asked again");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("1 file(s)") && warnings.get(0).contains("another database"),
                warnings.get(0));
        Path aFile = a.files().get(0);
        IOException refused = assertThrows(IOException.class, () -> b.load(aFile));
        assertTrue(refused.getMessage().contains("another database"), refused.getMessage());
        assertTrue(Files.exists(aFile), "left in place");
    }

    @Test
    void untaggedFilesAreDeliveredOnlyWhenAcceptedAndAreRedactedOnTheWay(@TempDir Path dir) throws Exception {
        // What a listener before targets wrote: the snapshot's JSON right away, with a secret it did not redact.
        AppSnapshot rich = SnapshotBuilder.rich("app-old", null, true);
        Map<String, String> spark = new LinkedHashMap<>(rich.config().sparkProperties());
        spark.put("spark.custom.apikey", "OldApiKey123");
        AppSnapshot old = SnapshotBuilder.copy(rich).config(new AppConfig(spark, Map.of(), Map.of(), Map.of())).build();
        Path file = dir.resolve("app-old" + Spool.SUFFIX);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            SnapshotCodec.write(old, out);
        }
        List<String> warnings = new ArrayList<>();
        Spool a = new Spool(dir, 1 << 30, A, warnings::add);
        assertTrue(a.files().isEmpty());
        assertTrue(warnings.get(0).contains("--accept-untagged"), warnings.toString());
        IOException refused = assertThrows(IOException.class, () -> a.load(file));
        assertTrue(refused.getMessage().contains("--accept-untagged"), refused.getMessage());
        AppSnapshot loaded = a.load(file, true);
        assertEquals(Redactor.REDACTED, loaded.config().sparkProperties().get("spark.custom.apikey"));
    }

    @Test
    void anotherUsersFilesAndDirectoriesAreNotUsed(@TempDir Path dir) throws Exception {
        UserPrincipal nobody = otherUser();
        Spool a = new Spool(dir.resolve("spool"), 1 << 30, A, w -> { });
        a.save(SnapshotBuilder.rich("app-1", null, true));
        Path planted = a.files().get(0);
        Files.setOwner(planted, nobody);
        List<String> warnings = new ArrayList<>();
        Spool again = new Spool(dir.resolve("spool"), 1 << 30, A, warnings::add);
        assertTrue(again.files().isEmpty(), "a file another user wrote is ignored");
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("another user"), warnings.get(0));
        IOException e = assertThrows(IOException.class, () -> again.load(planted));
        assertTrue(e.getMessage().contains("written by user"), e.getMessage());

        Path foreign = Files.createDirectory(dir.resolve("foreign"));
        Files.setOwner(foreign, nobody);
        Spool squatted = new Spool(foreign, 1 << 30, A, w -> { });
        IOException refused = assertThrows(IOException.class, () -> squatted.save(SnapshotBuilder.rich("app-2", null,
                true)));
        assertTrue(refused.getMessage().contains("belongs to"), refused.getMessage());
        try (var files = Files.list(foreign)) {
            assertEquals(0, files.count(), "nothing written into another user's directory");
        }
    }

    @Test
    void linksAreNotFollowed(@TempDir Path dir) throws Exception {
        Path spoolDir = Files.createDirectory(dir.resolve("spool"));
        Path elsewhere = dir.resolve("elsewhere" + Spool.SUFFIX);
        Spool other = new Spool(dir.resolve("other"), 1 << 30, A, w -> { });
        other.save(SnapshotBuilder.rich("app-1", null, true));
        Files.copy(other.files().get(0), elsewhere);
        Files.createSymbolicLink(spoolDir.resolve("link" + Spool.SUFFIX), elsewhere);
        assertTrue(new Spool(spoolDir, 1 << 30, A, w -> { }).files().isEmpty());
        assertThrows(IOException.class, () -> new Spool(spoolDir, 1 << 30, A, w -> { })
                .load(spoolDir.resolve("link" + Spool.SUFFIX)));
        assertTrue(Files.isSymbolicLink(spoolDir.resolve("link" + Spool.SUFFIX)));
        assertFalse(Files.isRegularFile(spoolDir.resolve("link" + Spool.SUFFIX), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void defaultDirectoryIsPerUser() {
        assertEquals("sparkscope-spool-" + System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_"),
                Spool.defaultDir().getFileName().toString());
    }

    private static UserPrincipal otherUser() throws IOException {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "changing a file's owner needs root; this test runs as " + System.getProperty("user.name"));
        try {
            return java.nio.file.FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        } catch (UserPrincipalNotFoundException e) {
            Assumptions.abort("no user 'nobody' on this machine");
            throw e;
        }
    }

    private static String firstLine(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                line.write(c);
            }
            return line.toString(StandardCharsets.US_ASCII);
        }
    }

    @Test
    void aSnapshotThatDoesNotFitRemovesTheOlderCopyItSupersedes(@TempDir Path dir) throws Exception {
        AppSnapshot early = SnapshotBuilder.rich("app-full", null, false);
        AppSnapshot last = SnapshotBuilder.big("app-full", 40, 200);
        Spool probe = new Spool(dir.resolve("probe"), 1L << 30, A, w -> { });
        probe.save(early);
        long earlySize = Files.size(probe.files().get(0));
        Spool spool = new Spool(dir.resolve("spool"), earlySize + 100, A, w -> { });
        assertEquals(0, spool.save(early), "the early snapshot fits");
        assertEquals(1, spool.files().size());

        long dropped = spool.save(last);
        assertTrue(dropped > earlySize + 100, "the later one does not fit: " + dropped);
        // Delivered alone, the early copy would store the application as still running with only what it held then.
        assertEquals(List.of(), spool.files(), "the superseded copy is gone too");
        try (var files = Files.list(dir.resolve("spool"))) {
            assertEquals(0, files.count(), "and no temporary file is left");
        }
    }

    @Test
    void temporaryFilesLeftByADeadWriterAreRemovedOnceTheyAreOld(@TempDir Path dir) throws Exception {
        Spool spool = new Spool(dir, 1 << 30, A, w -> { });
        spool.save(SnapshotBuilder.rich("app-tmp", null, false));
        Path old = Files.write(dir.resolve(".spool1234.tmp"), new byte[]{31, (byte) 139});
        Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()
                - Spool.STALE_TMP_AGE.toMillis() - 60_000));
        Path underWay = Files.write(dir.resolve(".spool5678.tmp"), new byte[]{31, (byte) 139});

        Spool restarted = new Spool(dir, 1 << 30, A, w -> { });
        assertEquals(1, restarted.files().size(), "the snapshot is still there");
        assertFalse(Files.exists(old), "a cut file of a writer that died is removed");
        assertTrue(Files.exists(underWay), "a young one may be another listener's write under way");
    }
}
