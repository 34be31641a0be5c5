package io.sparkscope.hadoop;

import org.apache.hadoop.fs.FileStatus;

import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.Objects;

/**
 * A path on a Hadoop filesystem, as a {@link Path}: names split at '/', absolute below the filesystem's root
 * ({@code hdfs://nn:8020}, {@code s3a://bucket}). Printed as the full URI, so every "file:line" message names the
 * place the user can find the log.
 *
 * <p>A path that came out of a directory listing carries the status the listing returned, so looking at its size,
 * time and type costs nothing: a directory of 10 000 logs is one listing, not 10 000 more calls to a name node or
 * an object store.
 */
final class HadoopPath implements Path {
    private final HadoopFileSystemView fs;
    private final boolean absolute;
    private final String[] names;
    /** From the listing that produced this path, or null: then it is asked for when needed. */
    final FileStatus listed;

    HadoopPath(HadoopFileSystemView fs, boolean absolute, String[] names, FileStatus listed) {
        this.fs = fs;
        this.absolute = absolute;
        this.names = names;
        this.listed = listed;
    }

    static HadoopPath parse(HadoopFileSystemView fs, String path) {
        boolean absolute = path.startsWith("/");
        String[] names = Arrays.stream(path.split("/")).filter(n -> !n.isEmpty()).toArray(String[]::new);
        return new HadoopPath(fs, absolute, names, null);
    }

    /** The path of a status a listing or lookup returned. */
    static HadoopPath of(HadoopFileSystemView fs, FileStatus status) {
        HadoopPath p = parse(fs, status.getPath().toUri().getPath());
        return new HadoopPath(fs, true, p.names, status);
    }

    /** Hadoop's own path, fully qualified. */
    org.apache.hadoop.fs.Path hadoop() {
        HadoopPath abs = (HadoopPath) toAbsolutePath();
        URI root = fs.root();
        return new org.apache.hadoop.fs.Path(root.getScheme(), root.getAuthority(), "/" + String.join("/", abs.names));
    }

    HadoopPath withoutStatus() {
        return listed == null ? this : new HadoopPath(fs, absolute, names, null);
    }

    @Override
    public HadoopFileSystemView getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return absolute;
    }

    @Override
    public Path getRoot() {
        return absolute ? new HadoopPath(fs, true, new String[0], null) : null;
    }

    @Override
    public Path getFileName() {
        return names.length == 0 ? null : new HadoopPath(fs, false, new String[]{names[names.length - 1]}, null);
    }

    @Override
    public Path getParent() {
        if (names.length == 0 || names.length == 1 && !absolute) {
            return null;
        }
        return new HadoopPath(fs, absolute, Arrays.copyOf(names, names.length - 1), null);
    }

    @Override
    public int getNameCount() {
        return names.length;
    }

    @Override
    public Path getName(int index) {
        if (index < 0 || index >= names.length) {
            throw new IllegalArgumentException("no name " + index + " in " + this);
        }
        return new HadoopPath(fs, false, new String[]{names[index]}, null);
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        if (beginIndex < 0 || endIndex > names.length || beginIndex >= endIndex) {
            throw new IllegalArgumentException("no names " + beginIndex + ".." + endIndex + " in " + this);
        }
        return new HadoopPath(fs, false, Arrays.copyOfRange(names, beginIndex, endIndex), null);
    }

    @Override
    public boolean startsWith(Path other) {
        HadoopPath o = cast(other);
        if (o.absolute != absolute || o.names.length > names.length) {
            return false;
        }
        for (int i = 0; i < o.names.length; i++) {
            if (!names[i].equals(o.names[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean endsWith(Path other) {
        HadoopPath o = cast(other);
        if (o.absolute && !absolute || o.names.length > names.length || o.absolute && o.names.length != names.length) {
            return false;
        }
        for (int i = 0; i < o.names.length; i++) {
            if (!names[names.length - o.names.length + i].equals(o.names[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Path normalize() {
        String[] out = new String[names.length];
        int n = 0;
        for (String name : names) {
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..") && n > 0 && !out[n - 1].equals("..")) {
                n--;
                continue;
            }
            if (name.equals("..") && absolute) {
                continue;
            }
            out[n++] = name;
        }
        return new HadoopPath(fs, absolute, Arrays.copyOf(out, n), null);
    }

    @Override
    public Path resolve(Path other) {
        HadoopPath o = cast(other);
        if (o.absolute) {
            return o;
        }
        String[] joined = Arrays.copyOf(names, names.length + o.names.length);
        System.arraycopy(o.names, 0, joined, names.length, o.names.length);
        return new HadoopPath(fs, absolute, joined, null);
    }

    @Override
    public Path relativize(Path other) {
        HadoopPath o = cast(other);
        if (o.absolute != absolute) {
            throw new IllegalArgumentException("cannot relativize " + other + " against " + this);
        }
        int common = 0;
        while (common < names.length && common < o.names.length && names[common].equals(o.names[common])) {
            common++;
        }
        String[] rel = new String[names.length - common + o.names.length - common];
        int i = 0;
        for (int k = common; k < names.length; k++) {
            rel[i++] = "..";
        }
        for (int k = common; k < o.names.length; k++) {
            rel[i++] = o.names[k];
        }
        return new HadoopPath(fs, false, rel, null);
    }

    @Override
    public URI toUri() {
        return hadoop().toUri();
    }

    @Override
    public Path toAbsolutePath() {
        return absolute ? this : new HadoopPath(fs, true, names, null);
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        return fs.provider().realPath(this);
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("watching a Hadoop filesystem: use a directory scan");
    }

    @Override
    public int compareTo(Path other) {
        return toString().compareTo(other.toString());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HadoopPath p && p.fs == fs && p.absolute == absolute && Arrays.equals(p.names, names);
    }

    @Override
    public int hashCode() {
        return Objects.hash(System.identityHashCode(fs), absolute, Arrays.hashCode(names));
    }

    @Override
    public String toString() {
        String joined = String.join("/", names);
        return absolute ? fs.rootText() + "/" + joined : joined;
    }

    private HadoopPath cast(Path other) {
        if (!(other instanceof HadoopPath p) || p.fs != fs) {
            throw new ProviderMismatchException(other + " is not on " + fs.rootText());
        }
        return p;
    }
}
