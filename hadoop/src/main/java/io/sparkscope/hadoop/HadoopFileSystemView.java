package io.sparkscope.hadoop;

import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileStore;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One Hadoop {@link FileSystem} (a name node, a bucket, the local disk) seen as a read-only
 * {@link java.nio.file.FileSystem}, so the event-log reader needs nothing Hadoop-specific.
 */
final class HadoopFileSystemView extends java.nio.file.FileSystem {
    private final FileSystem hadoop;
    private final URI root;
    private final String rootText;
    private final HadoopProvider provider;
    private final Masker masker;

    HadoopFileSystemView(FileSystem hadoop, URI root, Masker masker) {
        this.hadoop = hadoop;
        this.root = root;
        this.masker = masker;
        // scheme://authority without user information, or "file:" for the local disk (as Hadoop prints it)
        this.rootText = root.getScheme() + ":" + (root.getHost() == null && root.getAuthority() == null ? ""
                : "//" + (root.getHost() != null ? root.getHost() + (root.getPort() >= 0 ? ":" + root.getPort() : "")
                : masker.mask(root.getAuthority())));
        this.provider = new HadoopProvider(this);
    }

    FileSystem hadoop() {
        return hadoop;
    }

    URI root() {
        return root;
    }

    String rootText() {
        return rootText;
    }

    Masker masker() {
        return masker;
    }

    @Override
    public HadoopProvider provider() {
        return provider;
    }

    @Override
    public void close() throws IOException {
        hadoop.close();
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        return List.of(HadoopPath.parse(this, "/"));
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return List.of();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return Set.of("basic");
    }

    @Override
    public Path getPath(String first, String... more) {
        StringBuilder b = new StringBuilder(first);
        for (String m : more) {
            if (!m.isEmpty()) {
                b.append('/').append(m);
            }
        }
        return HadoopPath.parse(this, b.toString());
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        int colon = syntaxAndPattern.indexOf(':');
        if (colon < 0 || !syntaxAndPattern.substring(0, colon).equals("regex")) {
            throw new UnsupportedOperationException("only regex: path matchers on " + rootText);
        }
        Pattern p = Pattern.compile(syntaxAndPattern.substring(colon + 1));
        return path -> p.matcher(path.toString()).matches();
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException();
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("watching a Hadoop filesystem: use a directory scan");
    }
}
