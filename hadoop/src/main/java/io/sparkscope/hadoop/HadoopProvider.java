package io.sparkscope.hadoop;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.permission.FsAction;

import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The read side of {@link java.nio.file.Files} on a Hadoop filesystem: open, list, stat, check access. Hadoop's
 * exceptions come out as the NIO ones the reader already handles ({@link NoSuchFileException},
 * {@link AccessDeniedException}), every message one line with credentials masked. Writing is refused: Sparkscope
 * only reads event logs.
 */
final class HadoopProvider extends FileSystemProvider {
    private final HadoopFileSystemView fs;

    HadoopProvider(HadoopFileSystemView fs) {
        this.fs = fs;
    }

    @Override
    public String getScheme() {
        return fs.root().getScheme();
    }

    @Override
    public java.nio.file.FileSystem newFileSystem(URI uri, Map<String, ?> env) {
        throw new UnsupportedOperationException("open Hadoop filesystems through LogLocations.resolve");
    }

    @Override
    public java.nio.file.FileSystem getFileSystem(URI uri) {
        return fs;
    }

    @Override
    public Path getPath(URI uri) {
        return HadoopPath.parse(fs, uri.getPath() == null ? "/" : uri.getPath());
    }

    private HadoopPath cast(Path p) {
        if (!(p instanceof HadoopPath hp) || hp.getFileSystem() != fs) {
            throw new java.nio.file.ProviderMismatchException(p + " is not on " + fs.rootText());
        }
        return hp;
    }

    /** The path's status: the one its listing gave, or a lookup. */
    FileStatus status(HadoopPath p) throws IOException {
        if (p.listed != null) {
            return p.listed;
        }
        try {
            return fs.hadoop().getFileStatus(p.hadoop());
        } catch (IOException | RuntimeException e) {
            throw translate(e, p);
        }
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        HadoopPath p = cast(path);
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND) {
                throw new ReadOnlyFileSystemException();
            }
        }
        FSDataInputStream data;
        try {
            data = fs.hadoop().open(p.hadoop());
        } catch (IOException | RuntimeException e) {
            throw translate(e, p);
        }
        return new FilterInputStream(data) {
            @Override
            public int read() throws IOException {
                try {
                    return super.read();
                } catch (IOException | RuntimeException e) {
                    throw translate(e, p);
                }
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return super.read(b, off, len);
                } catch (IOException | RuntimeException e) {
                    throw translate(e, p);
                }
            }

            /** A seek, not a read: the watcher skips what it has read of a growing log. */
            @Override
            public long skip(long n) throws IOException {
                if (n <= 0) {
                    return 0;
                }
                try {
                    long at = data.getPos();
                    long len = status(p.withoutStatus()).getLen();
                    long to = Math.min(len, at + n);
                    data.seek(to);
                    return to - at;
                } catch (IOException | RuntimeException e) {
                    throw translate(e, p);
                }
            }
        };
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        HadoopPath p = cast(path);
        if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)) {
            throw new ReadOnlyFileSystemException();
        }
        FSDataInputStream in;
        long size;
        try {
            in = fs.hadoop().open(p.hadoop());
            size = fs.hadoop().getFileStatus(p.hadoop()).getLen();
        } catch (IOException | RuntimeException e) {
            throw translate(e, p);
        }
        return new SeekableByteChannel() {
            private boolean open = true;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                try {
                    byte[] b = new byte[Math.min(dst.remaining(), 1 << 16)];
                    int n = in.read(b, 0, b.length);
                    if (n > 0) {
                        dst.put(b, 0, n);
                    }
                    return n;
                } catch (IOException | RuntimeException e) {
                    throw translate(e, p);
                }
            }

            @Override
            public int write(ByteBuffer src) {
                throw new NonWritableChannelException();
            }

            @Override
            public long position() throws IOException {
                return in.getPos();
            }

            @Override
            public SeekableByteChannel position(long newPosition) throws IOException {
                in.seek(newPosition);
                return this;
            }

            @Override
            public long size() {
                return size;
            }

            @Override
            public SeekableByteChannel truncate(long s) {
                throw new NonWritableChannelException();
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() throws IOException {
                open = false;
                in.close();
            }
        };
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        HadoopPath p = cast(dir);
        if (!status(p).isDirectory()) {
            throw new NotDirectoryException(p.toString());
        }
        FileStatus[] listed;
        try {
            listed = fs.hadoop().listStatus(p.hadoop());
        } catch (IOException | RuntimeException e) {
            throw translate(e, p);
        }
        List<Path> entries = new ArrayList<>(listed.length);
        for (FileStatus s : listed) {
            HadoopPath child = HadoopPath.of(fs, s);
            if (filter.accept(child)) {
                entries.add(child);
            }
        }
        return new DirectoryStream<>() {
            @Override
            public Iterator<Path> iterator() {
                return entries.iterator();
            }

            @Override
            public void close() {
            }
        };
    }

    /** The path with links resolved: the local disk's real path, or what Hadoop resolves it to (viewfs, links). */
    Path realPath(HadoopPath p) throws IOException {
        try {
            if ("file".equals(fs.root().getScheme())) {
                Path real = Path.of(p.toUri()).toRealPath();
                return HadoopPath.parse(fs, real.toString());
            }
            org.apache.hadoop.fs.Path resolved = fs.hadoop().resolvePath(p.hadoop());
            return HadoopPath.parse(fs, resolved.toUri().getPath());
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(p.toString());
        } catch (IOException | RuntimeException e) {
            throw translate(e, p);
        }
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        HadoopPath p = cast(path);
        FileStatus s = status(p);
        for (AccessMode m : modes) {
            if (m == AccessMode.WRITE) {
                throw new AccessDeniedException(p.toString(), null, "read-only here");
            }
            if (m == AccessMode.READ) {
                try {
                    fs.hadoop().access(s.getPath(), s.isDirectory() ? FsAction.READ_EXECUTE : FsAction.READ);
                } catch (IOException | RuntimeException e) {
                    throw translate(e, p);
                }
            }
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        if (type != BasicFileAttributes.class) {
            throw new UnsupportedOperationException(type.getSimpleName() + " on " + fs.rootText());
        }
        return (A) attributes(status(cast(path)));
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        BasicFileAttributes a = readAttributes(path, BasicFileAttributes.class, options);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("size", a.size());
        m.put("lastModifiedTime", a.lastModifiedTime());
        m.put("lastAccessTime", a.lastAccessTime());
        m.put("creationTime", a.creationTime());
        m.put("isRegularFile", a.isRegularFile());
        m.put("isDirectory", a.isDirectory());
        m.put("isSymbolicLink", a.isSymbolicLink());
        m.put("isOther", a.isOther());
        m.put("fileKey", a.fileKey());
        return m;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        if (type != BasicFileAttributeView.class) {
            return null;
        }
        HadoopPath p = cast(path);
        return (V) new BasicFileAttributeView() {
            @Override
            public String name() {
                return "basic";
            }

            @Override
            public BasicFileAttributes readAttributes() throws IOException {
                return attributes(status(p));
            }

            @Override
            public void setTimes(FileTime m, FileTime a, FileTime c) {
                throw new ReadOnlyFileSystemException();
            }
        };
    }

    private static BasicFileAttributes attributes(FileStatus s) {
        FileTime modified = FileTime.fromMillis(s.getModificationTime());
        FileTime accessed = FileTime.fromMillis(s.getAccessTime() > 0 ? s.getAccessTime() : s.getModificationTime());
        String key = s.getPath().toString();
        return new BasicFileAttributes() {
            @Override
            public FileTime lastModifiedTime() {
                return modified;
            }

            @Override
            public FileTime lastAccessTime() {
                return accessed;
            }

            @Override
            public FileTime creationTime() {
                return modified;
            }

            @Override
            public boolean isRegularFile() {
                return s.isFile();
            }

            @Override
            public boolean isDirectory() {
                return s.isDirectory();
            }

            @Override
            public boolean isSymbolicLink() {
                return s.isSymlink();
            }

            @Override
            public boolean isOther() {
                return false;
            }

            @Override
            public long size() {
                return s.isFile() ? s.getLen() : 0;
            }

            @Override
            public Object fileKey() {
                return key;
            }
        };
    }

    /**
     * Hadoop's failure as the NIO exception the reader handles, in one masked line: a missing path, a refused one
     * (HDFS permissions, an object store's 403), or the store's own reason.
     */
    IOException translate(Throwable e, HadoopPath p) {
        if (e instanceof NoSuchFileException || e instanceof AccessDeniedException && e.getMessage() != null
                && e.getMessage().equals(p.toString())) {
            return (IOException) e;
        }
        if (e instanceof FileNotFoundException) {
            return new NoSuchFileException(p.toString());
        }
        String reason = HadoopErrors.reason(e, fs.masker());
        if (HadoopErrors.denied(e)) {
            return new AccessDeniedException(p.toString(), null, reason);
        }
        return new IOException(reason, null);
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void delete(Path path) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return path.equals(path2) || path.toRealPath().equals(path2.toRealPath());
    }

    @Override
    public boolean isHidden(Path path) {
        Path name = path.getFileName();
        return name != null && (name.toString().startsWith(".") || name.toString().startsWith("_"));
    }

    @Override
    public FileStore getFileStore(Path path) {
        throw new UnsupportedOperationException("file stores of " + fs.rootText());
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
        throw new ReadOnlyFileSystemException();
    }
}
