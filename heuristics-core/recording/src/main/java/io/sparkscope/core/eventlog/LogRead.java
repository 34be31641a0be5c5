package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.text.Units;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.sparkscope.core.eventlog.ProblemLog.bytes;
import static io.sparkscope.core.eventlog.ProblemLog.describe;
import static io.sparkscope.core.eventlog.ProblemLog.message;

/**
 * The state of reading one log: its counters, where an incremental read stopped, and the loop over its parts and
 * their lines. Which codec a part is read with is {@link CodecChoice}'s judgement, and how problems are kept and
 * worded is {@link ProblemLog}'s, so that this class is only the reading.
 */
final class LogRead implements LineScanner.Handler {
    private static final int READ_BUFFER = 1 << 16;
    /** Head bytes looked at to tell a codec, JSON or binary garbage apart. */
    private static final int HEAD_BYTES = 4096;
    /** Lines up to this size get invalid UTF-8 replaced by U+FFFD on a copy; longer ones by '?' in place. */
    private static final int UTF8_COPY_LIMIT = 4 << 20;
    /** Bytes of lines handed to a decoding thread at once: some hundreds of task lines, some ms of work. */
    private static final int BATCH_BYTES = 1 << 20;
    /**
     * Bytes of lines out for decoding at once, besides a single longer line (which goes alone): 16 MiB, or a
     * sixteenth of the heap when that is less, since the decoded events of those lines wait in memory too.
     */
    /** Settled batches kept for reuse: the few that are in flight at once come back one by one. */
    private static final int MAX_SPARE_BATCHES = 4;
    private static final long MAX_PENDING_BYTES = Math.min(16L << 20,
            Math.max(BATCH_BYTES, Runtime.getRuntime().maxMemory() / 16));

    private final Consumer<SparkEvent> sink;
    private final int maxLineBytes;
    private final ReaderLimits limits;
    private final boolean containSinkFailures;
    /** Threads parsing lines; 1: every line is parsed and settled here, one after the other. */
    private final int decodeThreads;
    private final int batchBytes;
    /** Settles every line in order (and, with one thread, parses it too). */
    private EventDecoder decoder;
    /** Each decoding thread's own parser, for one read. */
    private ThreadLocal<EventDecoder> parsers;
    /** Lines out on the decoding threads (several threads only), and the batch being filled. */
    private OrderedWork<LineResult[]> work;
    private LineBatch batch;
    /**
     * Batches whose lines are settled, to be filled again: a batch's 1 MiB array is a "humongous" object for G1 on a
     * small heap, costly to allocate and to collect, and a log of a million tasks went through thousands of them.
     */
    private final ArrayDeque<LineBatch> spareBatches = new ArrayDeque<>();
    private final ProblemLog problems;
    private final Map<String, Long> unknownTypes = new HashMap<>();

    private long lines;
    private long events;
    private long malformed;
    private long unknown;
    private long bytesRead;
    private boolean truncated;
    private long invalidValues;
    private long sinkFailures;

    // per part
    private String file;
    private LineScanner scanner;
    private long partEvents;
    private long partMalformed;
    /** Line number of the first line this read of the part sees, less one (a resumed plain part). */
    private long lineBase;
    /** Lines at the start of the part that an earlier read delivered already (a resumed compressed part). */
    private long skipLines;
    private long skippedLines;
    private long skippedBytes;
    /** Leave a last line without newline for the next read: the log is still being written. */
    private boolean holdLast;
    private boolean held;
    private long heldAt;
    private long partStartBytes;

    // an incremental read (the watcher): where the last one stopped
    private Position position = Position.START;

    /**
     * Where an incremental read stopped: in the part with this rolling index (0 for a single file), after
     * {@code bytes} uncompressed bytes and {@code lines} lines of complete lines; {@code complete}: the part was read
     * to its end and the next read starts with the part after it.
     */
    record Position(long part, long bytes, long lines, boolean complete) {
        static final Position START = new Position(-1, 0, 0, true);
    }

    /**
     * @param containSinkFailures read the log as one whole application for a recorder: an exception from
     *                            {@code sink} is reported as the line's problem and reading goes on (else it
     *                            propagates), and a log without an ApplicationStart gets one made from its name
     */
    LogRead(Consumer<SparkEvent> sink, Consumer<String> problems, int maxLineBytes, ReaderLimits limits,
            boolean containSinkFailures) {
        this(sink, problems, maxLineBytes, limits, containSinkFailures, 1);
    }

    /** @param decodeThreads threads that parse lines while this one settles them in order; 1: none */
    LogRead(Consumer<SparkEvent> sink, Consumer<String> problems, int maxLineBytes, ReaderLimits limits,
            boolean containSinkFailures, int decodeThreads) {
        this(sink, problems, maxLineBytes, limits, containSinkFailures, decodeThreads, BATCH_BYTES);
    }

    /** @param batchBytes bytes of lines handed to a decoding thread at once (small in tests: many batches) */
    LogRead(Consumer<SparkEvent> sink, Consumer<String> problems, int maxLineBytes, ReaderLimits limits,
            boolean containSinkFailures, int decodeThreads, int batchBytes) {
        this.batchBytes = Math.max(1, batchBytes);
        this.sink = sink;
        this.problems = new ProblemLog(problems);
        this.maxLineBytes = maxLineBytes;
        this.limits = limits;
        this.containSinkFailures = containSinkFailures;
        this.decodeThreads = Math.max(1, decodeThreads);
    }

    ReadStats run(EventLogSource source) {
        start(source);
        List<Path> parts = source.parts();
        try {
            for (int i = 0; i < parts.size(); i++) {
                readPartContained(parts.get(i), Position.START, false);
            }
        } finally {
            stopThreads();
        }
        return finishIncrement(source);
    }

    /** The decoding threads of this read, started on its second batch of lines (see {@link OrderedWork}). */
    private void startThreads() {
        if (decodeThreads > 1 && work == null) {
            parsers = ThreadLocal.withInitial(EventDecoder::forParsingAhead);
            work = new OrderedWork<>(decodeThreads, 2 * decodeThreads, MAX_PENDING_BYTES);
            batch = nextBatch(64 << 10);
        }
    }

    private void stopThreads() {
        if (work != null) {
            work.close();
            work = null;
            batch = null;
            spareBatches.clear(); // a watcher holds many logs between its scans: none keeps buffers
            parsers.remove(); // the parser this thread used for a last batch of its own
            parsers = null;
        }
    }

    /** The decoder for this log, and the check of a rolling log's numbering: once, before its first part. */
    private void start(EventLogSource source) {
        Path name = source.path().getFileName();
        decoder = new EventDecoder(name == null ? source.path().toString() : name.toString());
        if (source.rolling()) {
            checkRollingSequence(source);
        }
    }

    /**
     * {@link #readPart} where a reader bug, or a decompressor failing in a way it does not declare, ends this part
     * with a problem instead of the whole read.
     */
    private void readPartContained(Path part, Position from, boolean hold) {
        try {
            readPart(part, from, hold);
        } catch (RuntimeException | StackOverflowError e) {
            truncated = true;
            problem(part + ": reading stopped: " + e.getClass().getSimpleName() + ": " + message(e));
        } catch (Error e) {
            if (e instanceof VirtualMachineError) {
                throw e;
            }
            truncated = true;
            problem(part + ": reading stopped: " + e.getClass().getSimpleName() + ": " + message(e));
        }
    }

    Position position() {
        return position;
    }

    /**
     * Reads what the log holds past {@link #position()}: parts not read yet, and the part read last from where the
     * read stopped. With {@code toEnd} false (the log is still being written) the last part is read up to its last
     * complete line, and a compressed stream that ends in the middle of a block is not an error; with it true the
     * log is read to its end as {@link #run} reads it. Parts are never read twice; a compressed part that grew is
     * decompressed again but its lines already delivered are not decoded again.
     */
    void readIncrement(EventLogSource source, boolean toEnd) {
        if (decoder == null) {
            start(source);
        }
        try {
            readIncrementParts(source, toEnd);
        } finally {
            stopThreads(); // a watcher holds many logs between its scans: none keeps threads
        }
    }

    private void readIncrementParts(EventLogSource source, boolean toEnd) {
        List<Path> parts = source.parts();
        for (int i = 0; i < parts.size(); i++) {
            Path part = parts.get(i);
            long index = partIndex(source, i);
            if (index < position.part() || index == position.part() && position.complete()) {
                continue;
            }
            boolean last = i == parts.size() - 1;
            boolean resume = index == position.part();
            if (!resume && position.part() >= 0 && source.rolling() && index > position.part() + 1) {
                missingParts(source, position.part() + 1, index);
            }
            Position from = resume ? position : new Position(index, 0, 0, false);
            position = from;
            boolean hold = last && !toEnd;
            readPartContained(part, from, hold);
            if (!hold) {
                position = new Position(index, position.bytes(), position.lines(), true);
            }
        }
    }

    /**
     * Where part {@code i} stands in an incremental read: 0 for a single file, {@code <n>} for Spark's
     * {@code events_<n>_…} parts, and the place in the list (from 1) for parts whose names carry no number (a
     * Databricks rollover, whose parts are already in time order); without that last case every part of a rollover
     * would count as "before the first" and none would be read.
     */
    private static long partIndex(EventLogSource source, int i) {
        if (!source.rolling()) {
            return 0;
        }
        long n = FileNames.rollingIndex(source.parts().get(i).getFileName().toString());
        return n >= 0 ? n : i + 1;
    }

    /** After the last {@link #readIncrement}: what {@link #run} does once every part is read. */
    ReadStats finishIncrement(EventLogSource source) {
        SparkEvent.ApplicationStart made = containSinkFailures && decoder != null ? decoder.missingApplicationStart()
                : null;
        if (made != null) {
            for (String w : decoder.warnings()) {
                problem(source.path() + ": " + w);
            }
            deliver(made, source.path().toString(), -1);
        }
        return stats(source);
    }

    /** The counters so far. */
    ReadStats stats(EventLogSource source) {
        problems.noteSuppressed(source.path());
        return new ReadStats(lines, events, malformed, unknown, unknownTypes, bytesRead, truncated, invalidValues,
                sinkFailures, problems.kept());
    }

    /**
     * A rolling log's parts are numbered 1, 2, 3, …; after compaction the first is the compacted one. A number
     * that is missing is a part that was deleted or never copied: its events are lost, which the user must know.
     */
    private void checkRollingSequence(EventLogSource source) {
        List<Path> parts = source.parts();
        long expected = -1;
        for (Path part : parts) {
            String name = part.getFileName().toString();
            long index = FileNames.rollingIndex(name);
            if (index < 0) {
                continue;
            }
            if (expected < 0) {
                if (index > 1 && !FileNames.parse(name).compact()) {
                    problem(source.path() + ": rolling event log has no " + range(1, index - 1)
                            + " (its first part is events_" + index + "); the events in " + (index == 2 ? "it" : "them")
                            + " are missing");
                }
            } else if (index > expected) {
                missingParts(source, expected, index);
            }
            expected = index + 1;
        }
    }

    /** Parts {@code from} to just before {@code next} are missing between two parts that are there. */
    private void missingParts(EventLogSource source, long from, long next) {
        problem(source.path() + ": rolling event log has no " + range(from, next - 1)
                + " (between events_" + (from - 1) + " and events_" + next + "); the events in "
                + (next - 1 == from ? "it" : "them") + " are missing");
    }

    private static String range(long from, long to) {
        return from == to ? "events_" + from + " file" : "events_" + from + " to events_" + to + " files";
    }

    /**
     * Reads one part, resuming after {@code from} (a plain part by seeking there, a compressed one by not decoding
     * the lines it already delivered); {@code hold}: the part is still being written.
     */
    private void readPart(Path part, Position from, boolean hold) {
        file = part.toString();
        partEvents = 0;
        partMalformed = 0;
        lineBase = 0;
        skipLines = 0;
        skippedLines = 0;
        skippedBytes = 0;
        holdLast = hold;
        held = false;
        heldAt = 0;
        partStartBytes = 0;
        Codec named = Codec.ofShortName(FileNames.parse(part.getFileName().toString()).codec());
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(part), READ_BUFFER)) {
            raw.mark(HEAD_BYTES);
            byte[] head = raw.readNBytes(HEAD_BYTES);
            raw.reset();
            if (head.length == 0) {
                if (!hold) {
                    problem(file + ": empty file, no events");
                }
                return;
            }
            Codec codec = CodecChoice.choose(file, named, head, this::problem);
            if (codec == null) {
                return;
            }
            if (codec == Codec.PLAIN && from.bytes() > 0) {
                long toSkip = from.bytes();
                while (toSkip > 0) {
                    long n = raw.skip(toSkip);
                    if (n <= 0) {
                        break;
                    }
                    toSkip -= n;
                }
                if (toSkip > 0) {
                    return; // the file is shorter than what was read of it: the caller starts over
                }
                lineBase = from.lines();
                partStartBytes = from.bytes();
            } else {
                skipLines = from.lines();
                partStartBytes = 0;
            }
            InputStream in;
            try {
                // every codec, Spark's and the hand-made ones alike, is read under the same two caps
                in = codec == Codec.PLAIN ? raw : ExpansionLimit.open(codec, raw, limits);
            } catch (IOException | RuntimeException e) {
                problem(file + ": cannot read as " + codec.description + " data: " + message(e));
                return;
            }
            scanner = new LineScanner(maxLineBytes);
            startThreads();
            InputStream stream = in;
            try (stream) { // closing frees the decompressor's native buffers
                scanner.scan(stream, this);
                settleAll();
            } catch (RuntimeException | Error e) {
                stopThreads(); // what the threads still hold belongs to a part that is not read on
                throw e;
            }
            lines += scanner.lines() - skippedLines - (held ? 1 : 0);
            bytesRead += (held ? heldAt : scanner.bytesRead()) - skippedBytes;
            position = new Position(position.part(), partStartBytes + (held ? heldAt : scanner.bytesRead()),
                    lineBase + scanner.lines() - (held ? 1 : 0), false);
            IOException failure = scanner.failure();
            if (hold && !(failure instanceof ExpansionLimit.Exceeded)) {
                failure = null; // a stream being written ends in the middle of a block; the next read goes on
            }
            if (failure instanceof ExpansionLimit.Exceeded) {
                truncated = true;
                problem(file + ": " + failure.getMessage() + "; stopped reading, the rest of the file is not read ("
                        + codec.description + " data; the limits: " + limits.maxExpansionRatio() + " x past the first "
                        + Units.size(limits.ratioFreeBytes()) + ", " + Units.size(limits.maxDecompressedBytes())
                        + " in all; "
                        + ReaderLimits.MAX_EXPANSION_PROPERTY + ", " + ReaderLimits.MAX_DECOMPRESSED_PROPERTY + ")");
            } else if (failure != null) {
                truncated = true;
                problem(file + ": " + codec.description + " data ends early or is corrupt after "
                        + scanner.bytesRead() + " uncompressed bytes (" + message(failure) + "); the log is cut");
            }
            if (partEvents == 0 && partMalformed > 0) {
                problem(file + ": no Spark events found in " + partMalformed + " malformed lines; is this an event log?");
            }
        } catch (IOException e) {
            problem(file + ": cannot read: " + message(e));
        }
    }

    @Override
    public void line(byte[] buf, int off, int len, long scannedLine, boolean complete) {
        if (alreadyRead(scannedLine, complete)) {
            return;
        }
        long lineNo = lineBase + scannedLine;
        if (isBlank(buf, off, len)) {
            return;
        }
        if (work == null) {
            applyLine(decodeLine(decoder, buf, off, len), lineNo, complete);
            return;
        }
        if (!batch.fits(len) && batch.count > 0) {
            LineBatch full = batch;
            work.submit(() -> decodeBatch(full), full.used, results -> applyBatch(full, results));
            batch = nextBatch(batchBytes); // a log of more than one batch: full size at once
        }
        batch.add(buf, off, len, lineNo, complete);
    }

    /** The lines read so far are settled and delivered: at the end of a part, and before an oversized line's note. */
    private void settleAll() {
        if (work == null) {
            return;
        }
        LineBatch last = batch;
        batch = nextBatch(64 << 10);
        if (last.count > 0) {
            work.finish(() -> decodeBatch(last), last.used, results -> applyBatch(last, results));
        } else {
            work.drain();
        }
    }

    /** What parsing one line gave, to be settled in the log's order ({@link #applyLine}). */
    private record LineResult(EventDecoder.Parsed parsed, Throwable failure, String utf8Warning, List<String> cuts) {
    }

    /** On a decoding thread: each line of the batch parsed by that thread's own decoder. */
    private LineResult[] decodeBatch(LineBatch b) {
        EventDecoder parser = parsers.get();
        LineResult[] results = new LineResult[b.count];
        for (int i = 0; i < b.count; i++) {
            results[i] = decodeLine(parser, b.bytes, b.offsets[i], b.lengths[i]);
        }
        return results;
    }

    private void applyBatch(LineBatch b, LineResult[] results) {
        for (int i = 0; i < b.count; i++) {
            applyLine(results[i], b.lineNos[i], b.complete[i]);
        }
        // its decoding thread is done with it (its result was taken back); a batch grown for one long line is let go
        if (b.bytes.length <= batchBytes && spareBatches.size() < MAX_SPARE_BATCHES) {
            b.clear();
            spareBatches.push(b);
        }
    }

    /** An empty batch: a settled one again, else a new one starting at {@code size} bytes. */
    private LineBatch nextBatch(int size) {
        LineBatch spare = spareBatches.poll();
        return spare != null ? spare : new LineBatch(batchBytes, size);
    }

    /**
     * Parses one line with {@code parser}, touching nothing of this read but the line's bytes (over-long strings
     * are cut in place, and long lines with invalid UTF-8 repaired in place): safe on a decoding thread.
     */
    private LineResult decodeLine(EventDecoder parser, byte[] buf, int off, int len) {
        List<String> cuts = null;
        if (len > limits.maxStringBytes()) {
            cuts = new ArrayList<>(1);
            len = LongStrings.cut(buf, off, len, limits.maxStringBytes(), cuts);
        }
        String utf8Warning = null;
        try {
            try {
                return new LineResult(parser.parse(buf, off, len), null, null, cuts);
            } catch (com.fasterxml.jackson.core.JsonParseException e) {
                String m = e.getOriginalMessage();
                if (m == null || !m.contains("Invalid UTF-8")) {
                    throw e;
                }
                // Spark writes UTF-8, but a damaged file is still read: the bad bytes are replaced
                byte[] fixed = replaceInvalidUtf8(buf, off, len);
                utf8Warning = "invalid UTF-8 bytes replaced with " + (fixed == buf ? "'?'" : "U+FFFD")
                        + " (the file is damaged)";
                EventDecoder.Parsed parsed = fixed == buf ? parser.parse(buf, off, len)
                        : parser.parse(fixed, 0, fixed.length);
                return new LineResult(parsed, null, utf8Warning, cuts);
            }
        } catch (IOException | InvalidEventException | RuntimeException | StackOverflowError e) {
            return new LineResult(parser.parsedSoFar(null), e, utf8Warning, cuts);
        }
    }

    /** Settles one parsed line in the log's order, and delivers its event or reports its problem. */
    private void applyLine(LineResult r, long lineNo, boolean complete) {
        decoder.begin(r.parsed());
        if (r.utf8Warning() != null) {
            warnLine(lineNo, r.utf8Warning());
        }
        Throwable failure = r.failure();
        SparkEvent event = null;
        if (failure == null) {
            try {
                event = decoder.settle(r.parsed());
            } catch (InvalidEventException | RuntimeException | StackOverflowError e) {
                failure = e;
            }
        }
        if (failure instanceof InvalidEventException e) {
            malformed++;
            partMalformed++;
            warnCuts(lineNo, r.cuts());
            warnValues(lineNo);
            problem(file + ":" + lineNo + ": " + e.getMessage());
            return;
        }
        if (failure != null) {
            if (!complete) {
                truncated = true;
                if (scanner.failure() == null) { // else the stream failure is the one message
                    problem(file + ":" + lineNo + ": last line is cut off (no newline, incomplete JSON); the log ends early");
                }
                return;
            }
            malformed++;
            partMalformed++;
            problem(file + ":" + lineNo + ": " + describe(failure));
            return;
        }
        warnCuts(lineNo, r.cuts());
        warnValues(lineNo);
        if (event instanceof SparkEvent.Unknown u) {
            unknown++;
            unknownTypes.merge(u.type(), 1L, Long::sum);
        } else {
            events++;
            partEvents++;
        }
        deliver(event, file, lineNo);
    }

    /**
     * A line an earlier read of this part delivered (a compressed part read again from its start), or the last line
     * of a part still being written, left for the next read: neither is decoded now.
     */
    private boolean alreadyRead(long scannedLine, boolean complete) {
        if (scannedLine <= skipLines) {
            skippedLines++;
            skippedBytes = scanner.consumedTo();
            return true;
        }
        if (!complete && holdLast) {
            held = true;
            heldAt = scanner.consumedTo();
            return true;
        }
        return false;
    }

    /**
     * Hands the event to the sink; {@code where} is named in the problem only when the sink fails (the text is built
     * then, not for every line).
     *
     * @param lineNo the event's line in {@code where}, or -1 for an event made for the whole log
     */
    private void deliver(SparkEvent event, String where, long lineNo) {
        if (!containSinkFailures) {
            sink.accept(event);
            return;
        }
        try {
            sink.accept(event);
        } catch (RuntimeException | StackOverflowError e) {
            sinkFailures++;
            problem(where + ":" + (lineNo < 0 ? "" : lineNo + ":") + " " + eventName(event) + " could not be applied (" + e.getClass().getSimpleName() + ": "
                    + message(e) + "); that event is skipped");
        }
    }

    private static String eventName(SparkEvent e) {
        return e instanceof SparkEvent.Unknown u ? u.type() : "SparkListener" + e.getClass().getSimpleName();
    }

    private void warnLine(long lineNo, String warning) {
        invalidValues++;
        problem(file + ":" + lineNo + ": " + warning);
    }

    private void warnCuts(long lineNo, List<String> cuts) {
        if (cuts != null) {
            for (String cut : cuts) {
                warnLine(lineNo, cut);
            }
        }
    }

    private void warnValues(long lineNo) {
        for (String w : decoder.warnings()) {
            warnLine(lineNo, w);
        }
    }

    /**
     * The line with each invalid UTF-8 byte replaced: by U+FFFD in a new array for lines up to
     * {@link #UTF8_COPY_LIMIT}, else by '?' in place (the same array is returned), so a long line is not copied.
     */
    static byte[] replaceInvalidUtf8(byte[] buf, int off, int len) {
        if (len <= UTF8_COPY_LIMIT) {
            return new String(buf, off, len, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        }
        int end = off + len;
        int i = off;
        while (i < end) {
            int b = buf[i] & 0xFF;
            int n = b < 0x80 ? 0 : b >= 0xC2 && b <= 0xDF ? 1 : b >= 0xE0 && b <= 0xEF ? 2 : b >= 0xF0 && b <= 0xF4 ? 3 : -1;
            boolean ok = n >= 0 && i + n < end;
            for (int k = 1; ok && k <= n; k++) {
                ok = (buf[i + k] & 0xC0) == 0x80;
            }
            if (!ok) {
                buf[i++] = '?';
                continue;
            }
            i += n + 1;
        }
        return buf;
    }

    private void problem(String message) {
        problems.report(message);
    }

    @Override
    public void oversized(long scannedLine, long length, boolean complete) {
        if (alreadyRead(scannedLine, complete)) {
            return;
        }
        long lineNo = lineBase + scannedLine;
        settleAll(); // its note goes after the lines before it
        malformed++;
        partMalformed++;
        if (!complete) {
            truncated = true;
        }
        problem(file + ":" + lineNo + ": line of " + length + (complete ? "" : "+") + " bytes is longer than the "
                + maxLineBytes + "-byte limit (sparkscope.eventlog.maxLineBytes); skipped");
    }

    private static boolean isBlank(byte[] buf, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte b = buf[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }


    /**
     * Lines copied out of the scanner's reused buffer, for one decoding thread. The first batch of a part starts
     * small and grows, so the many small logs of a watched directory cost kilobytes each, not a megabyte.
     */
    private static final class LineBatch {
        private final int limit;
        byte[] bytes;
        int used;
        int count;
        int[] offsets = new int[64];
        int[] lengths = new int[64];
        long[] lineNos = new long[64];
        boolean[] complete = new boolean[64];

        /** The first batch of a part starts at 64 KiB, the later ones (a log of more than one) at {@code size}. */
        LineBatch(int limit, int size) {
            this.limit = limit;
            bytes = new byte[Math.min(limit, size)];
        }

        /** Empty again, keeping its arrays. */
        void clear() {
            used = 0;
            count = 0;
        }

        /** Whether a line of {@code len} bytes still goes into this batch (a longer one than the limit goes alone). */
        boolean fits(int len) {
            return used + len <= limit;
        }

        void add(byte[] buf, int off, int len, long lineNo, boolean whole) {
            if (used + len > bytes.length) {
                long grown = Math.max((long) used + len, Math.min((long) bytes.length * 2, limit));
                bytes = java.util.Arrays.copyOf(bytes, (int) Math.min(grown, Integer.MAX_VALUE - 16));
            }
            if (count == offsets.length) {
                int n = count * 2;
                offsets = java.util.Arrays.copyOf(offsets, n);
                lengths = java.util.Arrays.copyOf(lengths, n);
                lineNos = java.util.Arrays.copyOf(lineNos, n);
                complete = java.util.Arrays.copyOf(complete, n);
            }
            System.arraycopy(buf, off, bytes, used, len);
            offsets[count] = used;
            lengths[count] = len;
            lineNos[count] = lineNo;
            complete[count] = whole;
            used += len;
            count++;
        }
    }
}
