package io.sparkscope.examples.demo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One demo per data directory: an OS file lock on {@code demo.lock} (released by the OS even when the JVM is
 * killed, so a crash never leaves a stale lock), with the holder's pid inside for the message.
 */
final class DemoLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DemoLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** @return the lock, or null when another process holds it */
    static DemoLock tryAcquire(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            l = null;
        }
        if (l == null) {
            ch.close();
            return null;
        }
        ch.truncate(0);
        ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
        ch.force(false);
        return new DemoLock(ch, l);
    }

    /** The pid written by the holder, or "?" when unreadable. */
    static String holder(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8).trim();
            return s.isEmpty() ? "?" : s;
        } catch (IOException e) {
            return "?";
        }
    }

    @Override
    public void close() throws IOException {
        if (lock.isValid()) {
            lock.release();
        }
        channel.close();
    }
}
