package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;

import java.util.function.Consumer;

/**
 * Reads a log that is still being written, a little more each time: what {@link #readNew} was given before is
 * never decoded again. A rolling log's finished parts are read once; the part being written is read up to its last
 * complete line and, next time, from there (a plain part by seeking, a compressed one by decompressing again
 * without decoding the lines already delivered). Once the log is no longer in progress (renamed from
 * {@code .inprogress}, or its rolling {@code appstatus_} file renamed), the rest is read as
 * {@link EventLogReader#readContained} reads a whole log, with the same checks, warnings and limits.
 *
 * <p>Not thread-safe: one watcher thread reads one log.
 */
public final class EventLogTail {
    private final LogRead read;
    private boolean finished;
    private ReadStats finalStats;

    public EventLogTail(Consumer<SparkEvent> sink, Consumer<String> problems) {
        this(sink, problems, EventLogReader.decodeThreads());
    }

    /** @param threads threads parsing lines during each read (1: the calling thread alone); none outlives a read */
    public EventLogTail(Consumer<SparkEvent> sink, Consumer<String> problems, int threads) {
        this.read = new LogRead(sink, problems, EventLogReader.maxLineBytes(), ReaderLimits.fromSystemProperties(),
                true, threads);
    }

    /**
     * Reads what was added since the last call: up to the last complete line while the log is in progress, to the
     * end (and then {@link #finished()}) once it is not.
     */
    public void readNew(EventLogSource source) {
        if (finished) {
            return;
        }
        read.readIncrement(source, !source.inProgress());
        if (!source.inProgress()) {
            finalStats = read.finishIncrement(source);
            finished = true;
        }
    }

    /** Reads the rest as a finished log even though it is still named in progress (a driver that died). */
    public void finish(EventLogSource source) {
        if (finished) {
            return;
        }
        read.readIncrement(source, true);
        finalStats = read.finishIncrement(source);
        finished = true;
    }

    public boolean finished() {
        return finished;
    }

    /**
     * Whether this log must be read again from its start by a new tail: it shrank (rewritten, truncated) below what
     * was read of it, or a compaction folded parts into one that this tail read partly.
     */
    public boolean mustRestart(EventLogSource source, long currentPartBytes) {
        LogRead.Position p = read.position();
        if (p.part() < 0) {
            return false;
        }
        if (!source.rolling()) {
            return currentPartBytes >= 0 && currentPartBytes < p.bytes() && source.codec() == null;
        }
        String first = source.parts().get(0).getFileName().toString();
        long compacted = FileNames.rollingIndex(first);
        return FileNames.parse(first).compact() && (compacted > p.part() || compacted == p.part() && !p.complete());
    }

    /** The rolling index of the part read last (0 for a single file, -1 before the first read). */
    public long part() {
        return read.position().part();
    }

    /** Uncompressed bytes of complete lines read from that part. */
    public long bytesInPart() {
        return read.position().bytes();
    }

    public long linesInPart() {
        return read.position().lines();
    }

    /** What was read so far (the final counts once {@link #finished()}). */
    public ReadStats stats(EventLogSource source) {
        return finished ? finalStats : read.stats(source);
    }

    @Override
    public String toString() {
        LogRead.Position p = read.position();
        return "part " + p.part() + ", " + p.bytes() + " bytes, " + p.lines() + " lines" + (finished ? ", finished" : "");
    }
}
