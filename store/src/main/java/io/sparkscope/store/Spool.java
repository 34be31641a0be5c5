package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.redact.SnapshotRedactor;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Local holding place for snapshots the database could not take. One file per application attempt and target
 * database, replaced by each newer snapshot (a snapshot is the whole state so far), so the spool grows with
 * applications, not events. Bounded by {@code maxBytes}; past it a snapshot is dropped and the caller is told how
 * many bytes.
 *
 * <p>Each file records the database it is meant for ({@link SpoolTarget}: a hash, never the URL or the password) in
 * a first line before the snapshot's JSON, inside the gzip stream. A spool only lists and loads files of its own
 * target that its own user wrote, so listeners of different databases (or users) can share a directory without
 * delivering each other's applications: the other files stay in place, and each kind of file left alone is named in
 * one warning per spool. Files without a target (written by Sparkscope before targets existed) are delivered only by
 * {@code import --spool … --accept-untagged}.
 *
 * <p>A directory this spool creates is readable by its owner only (0700), and so is every file (0600). A directory
 * that belongs to another user is never written to: someone else could read or plant snapshots there.
 */
public final class Spool {
    public static final String SUFFIX = ".snapshot.json.gz";
    private static final String MAGIC = "SPARKSCOPE-SPOOL";
    private static final Pattern HEADER = Pattern.compile(MAGIC + " 2 target=([0-9a-f]{64})");
    private static final int MAX_HEADER = 200;
    private static final String TMP_PREFIX = ".spool";
    private static final String TMP_SUFFIX = ".tmp";
    /**
     * A temporary file older than this was left by a process that died while writing it (a write takes seconds at
     * most); a younger one may be another listener's write under way in a shared spool.
     */
    static final Duration STALE_TMP_AGE = Duration.ofMinutes(10);
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private final Path dir;
    private final long maxBytes;
    private final String target;
    private final Consumer<String> warn;
    /** Kinds of file already warned about, so a shared directory gives one line per kind, not one per look. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean tmpCleaned = new AtomicBoolean();

    /**
     * @param target {@link SpoolTarget#of} of the database this spool delivers to
     * @param warn   where "left in place" warnings go (one per kind of file, per spool)
     */
    public Spool(Path dir, long maxBytes, String target, Consumer<String> warn) {
        if (target == null || !target.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("spool target must be a SpoolTarget hash");
        }
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.target = target;
        this.warn = warn;
    }

    /** {@code java.io.tmpdir/sparkscope-spool-<user>}: one spool per user, so users never share one by default. */
    public static Path defaultDir() {
        String user = System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
        return Paths.get(System.getProperty("java.io.tmpdir"), "sparkscope-spool-" + user);
    }

    public Path dir() {
        return dir;
    }

    public String target() {
        return target;
    }

    /**
     * File name of an application attempt for this target: only safe characters, so an app id can never escape the
     * folder; the target's first 12 hex digits first, so two databases' copies of one attempt never replace each
     * other.
     */
    public String fileName(String appId, String attemptId) {
        String key = (appId == null ? "unknown" : appId) + (attemptId == null ? "" : "_" + attemptId);
        return target.substring(0, 12) + "_" + key.replaceAll("[^A-Za-z0-9._-]", "_") + SUFFIX;
    }

    /**
     * Saves the snapshot, replacing an older one of the same attempt. It is written to a temporary file and renamed
     * into place, so a process that dies mid-write leaves no cut spool file ({@link #removeStaleTemporaryFiles}
     * clears what it leaves). When it does not fit, the older copy of the same attempt is removed too: a later
     * snapshot supersedes it, and delivered on its own it would store the application as still running, with only
     * what it held then.
     *
     * @return 0 when saved, else the bytes that did not fit and were dropped
     * @throws IOException also when the directory belongs to another user
     */
    public long save(AppSnapshot snapshot) throws IOException {
        prepareDirectory();
        Path file = dir.resolve(fileName(snapshot.appId(), snapshot.attemptId()));
        Path tmp = posix() ? Files.createTempFile(dir, TMP_PREFIX, TMP_SUFFIX,
                PosixFilePermissions.asFileAttribute(OWNER_FILE)) : Files.createTempFile(dir, TMP_PREFIX, TMP_SUFFIX);
        try {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(tmp))) {
                out.write((MAGIC + " 2 target=" + target + "\n").getBytes(StandardCharsets.US_ASCII));
                SnapshotCodec.write(snapshot, out);
            }
            long size = Files.size(tmp);
            long others = usedBytes() - (Files.exists(file) ? Files.size(file) : 0) - size;
            if (others + size > maxBytes) {
                Files.deleteIfExists(file);
                return size;
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return 0;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private void prepareDirectory() throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            if (posix()) {
                FileAttribute<Set<PosixFilePermission>> ownerOnly = PosixFilePermissions.asFileAttribute(OWNER_DIR);
                Files.createDirectories(dir, ownerOnly);
                Files.setPosixFilePermissions(dir, OWNER_DIR); // whatever the umask did
            } else {
                Files.createDirectories(dir);
            }
        }
        UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
        if (!isMe(owner)) {
            throw new IOException("spool directory " + dir + " belongs to " + owner.getName() + ", not to "
                    + me().getName() + "; not writing snapshots there (choose another with spark.sparkscope.spool.dir)");
        }
    }

    /**
     * Deletes this user's temporary files that a process ended mid-write left behind (nothing reads them: they are
     * not spool files). Once per spool, before its first look at the files.
     *
     * @return how many were deleted
     */
    public int removeStaleTemporaryFiles() throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        long cutoff = System.currentTimeMillis() - STALE_TMP_AGE.toMillis();
        int removed = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(TMP_PREFIX) && name.endsWith(TMP_SUFFIX)
                        && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                        && isMe(Files.getOwner(p, LinkOption.NOFOLLOW_LINKS))
                        && Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis() < cutoff) {
                    Files.deleteIfExists(p);
                    removed++;
                }
            }
        }
        return removed;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public void remove(AppSnapshot snapshot) throws IOException {
        Files.deleteIfExists(dir.resolve(fileName(snapshot.appId(), snapshot.attemptId())));
    }

    /**
     * The files this spool delivers: its own target's, written by its own user. Files of other targets, without a
     * target, of other users, or unreadable, stay where they are, each kind named in one warning.
     */
    public List<Path> files() throws IOException {
        if (tmpCleaned.compareAndSet(false, true)) {
            removeStaleTemporaryFiles();
        }
        List<Path> mine = new ArrayList<>();
        List<Path> otherTarget = new ArrayList<>();
        List<Path> untagged = new ArrayList<>();
        List<Path> otherUser = new ArrayList<>();
        List<Path> unreadable = new ArrayList<>();
        for (Path file : candidates(dir)) {
            if (!isMe(Files.getOwner(file, LinkOption.NOFOLLOW_LINKS))) {
                otherUser.add(file);
                continue;
            }
            String t;
            try {
                t = targetOf(file);
            } catch (IOException e) {
                unreadable.add(file);
                continue;
            }
            if (t == null) {
                untagged.add(file);
            } else if (t.equals(target)) {
                mine.add(file);
            } else {
                otherTarget.add(file);
            }
        }
        warnOnce("other-target", otherTarget, "spooled for another database; left in place for the listener or "
                + "import of that database");
        warnOnce("untagged", untagged, "written by an older Sparkscope without a target database; deliver with "
                + "sparkscope import --spool " + dir + " --db <url> --accept-untagged");
        warnOnce("other-user", otherUser, "written by another user; ignored");
        warnOnce("unreadable", unreadable, "not readable as spool files; left in place");
        return mine;
    }

    private void warnOnce(String kind, List<Path> files, String what) {
        if (!files.isEmpty() && warned.add(kind)) {
            warn.accept(files.size() + " file(s) in spool " + dir + " " + what + " (e.g. " + files.get(0).getFileName()
                    + ")");
        }
    }

    /** Every regular file with the spool suffix (links are not followed: a link could point anywhere). */
    public static List<Path> candidates(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return new ArrayList<>(s.filter(p -> p.getFileName().toString().endsWith(SUFFIX))
                    .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList());
        }
    }

    /** The snapshot of one of {@link #files()}, redacted again (it may come from an older version). */
    public AppSnapshot load(Path file) throws IOException {
        return load(file, false);
    }

    /**
     * @param acceptUntagged also load a file without a target (an older Sparkscope's): the caller vouches that it
     *                       belongs in this spool's database
     * @throws IOException naming why a file is refused: another user's, another database's, no target
     */
    public AppSnapshot load(Path file, boolean acceptUntagged) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("not a regular file; left in place");
        }
        UserPrincipal owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS);
        if (!isMe(owner)) {
            throw new IOException("written by user " + owner.getName() + ", not " + me().getName() + "; ignored");
        }
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(file)))) {
            String t = readTarget(in);
            if (t == null && !acceptUntagged) {
                throw new IOException("written by an older Sparkscope without a target database; left in place "
                        + "(add --accept-untagged to deliver it to this database)");
            }
            if (t != null && !t.equals(target)) {
                throw new IOException("spooled for another database (target " + t.substring(0, 12)
                        + "…, this is " + target.substring(0, 12) + "…); left in place");
            }
            return SnapshotRedactor.redact(SnapshotCodec.read(in));
        }
    }

    /** The target a file records, or null for a file without one (the older format: the JSON right away). */
    static String targetOf(Path file) throws IOException {
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(file)))) {
            return readTarget(in);
        }
    }

    /** Reads the header line, or nothing when the stream starts with the JSON of an untagged file. */
    private static String readTarget(InputStream in) throws IOException {
        in.mark(1);
        int first = in.read();
        if (first == '{') {
            in.reset();
            return null;
        }
        StringBuilder line = new StringBuilder(MAGIC.length() + 80);
        for (int c = first; c != '\n'; c = in.read()) {
            if (c < 0 || line.length() > MAX_HEADER) {
                throw new IOException("not a Sparkscope spool file");
            }
            line.append((char) c);
        }
        Matcher m = HEADER.matcher(line);
        if (!m.matches()) {
            throw new IOException("not a Sparkscope spool file (unknown header)");
        }
        return m.group(1);
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static UserPrincipal currentUser;

    /**
     * This process's user as the file system names it: the owner of a file it creates. Looking the name up would
     * fail in containers that run under a uid without a passwd entry.
     */
    private static synchronized UserPrincipal me() throws IOException {
        if (currentUser == null) {
            Path probe = Files.createTempFile("sparkscope-owner", ".tmp");
            try {
                currentUser = Files.getOwner(probe);
            } finally {
                Files.deleteIfExists(probe);
            }
        }
        return currentUser;
    }

    private static boolean isMe(UserPrincipal owner) throws IOException {
        return owner.equals(me()) || owner.getName().equals(me().getName());
    }

    private long usedBytes() throws IOException {
        long n = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    n += Files.size(p);
                }
            }
        }
        return n;
    }
}
