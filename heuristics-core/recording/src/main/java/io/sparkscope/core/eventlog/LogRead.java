package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The state of reading one log: counters, problem reporting, and the per-part loop. */
final class LogRead implements LineScanner.Handler {
    private static final int READ_BUFFER = 1 << 16;
    /** Head bytes looked at to tell a codec, JSON or binary garbage apart. */
    private static final int HEAD_BYTES = 4096;
    /** Lines up to this size get invalid UTF-8 replaced by U+FFFD on a copy; longer ones by '?' in place. */
    private static final int UTF8_COPY_LIMIT = 4 << 20;

    private final Consumer<SparkEvent> sink;
    private final Consumer<String> problemSink;
    private final int maxLineBytes;
    private final ReaderLimits limits;
    private final boolean containSinkFailures;
    private EventDecoder decoder;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Long> unknownTypes = new HashMap<>();
    private long suppressedProblems;

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
        this.sink = sink;
        this.problemSink = problems;
        this.maxLineBytes = maxLineBytes;
        this.limits = limits;
        this.containSinkFailures = containSinkFailures;
    }

    ReadStats run(EventLogSource source) {
        Path name = source.path().getFileName();
        decoder = new EventDecoder(name == null ? source.path().toString() : name.toString());
        List<Path> parts = source.parts();
        if (source.rolling()) {
            checkRollingSequence(source);
        }
        for (int i = 0; i < parts.size(); i++) {
            try {
                readPart(parts.get(i), i == parts.size() - 1);
            } catch (RuntimeException | StackOverflowError e) {
                // a reader bug or a decompressor failing in a way it does not declare: this part ends here
                truncated = true;
                problem(parts.get(i) + ": reading stopped: " + e.getClass().getSimpleName() + ": " + message(e));
            } catch (Error e) {
                if (e instanceof VirtualMachineError) {
                    throw e;
                }
                truncated = true;
                problem(parts.get(i) + ": reading stopped: " + e.getClass().getSimpleName() + ": " + message(e));
            }
        }
        SparkEvent.ApplicationStart made = containSinkFailures ? decoder.missingApplicationStart() : null;
        if (made != null) {
            for (String w : decoder.warnings()) {
                problem(source.path() + ": " + w);
            }
            deliver(made, source.path() + ":");
        }
        if (suppressedProblems > 0) {
            String note = source.path() + ": " + suppressedProblems + " more problems not shown";
            problems.add(note);
            problemSink.accept(note);
        }
        return new ReadStats(lines, events, malformed, unknown, unknownTypes, bytesRead, truncated, invalidValues,
                sinkFailures, problems);
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
            Path name = source.path().getFileName();
            decoder = new EventDecoder(name == null ? source.path().toString() : name.toString());
            if (source.rolling()) {
                checkRollingSequence(source);
            }
        }
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
                problem(source.path() + ": rolling event log has no " + range(position.part() + 1, index - 1)
                        + " (between events_" + position.part() + " and events_" + index + "); the events in "
                        + (index - 1 == position.part() + 1 ? "it" : "them") + " are missing");
            }
            Position from = resume ? position : new Position(index, 0, 0, false);
            position = from;
            boolean hold = last && !toEnd;
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
            deliver(made, source.path() + ":");
        }
        return stats(source);
    }

    /** The counters so far. */
    ReadStats stats(EventLogSource source) {
        if (suppressedProblems > 0) {
            String note = source.path() + ": " + suppressedProblems + " more problems not shown";
            problems.add(note);
            problemSink.accept(note);
            suppressedProblems = 0;
        }
        return new ReadStats(lines, events, malformed, unknown, unknownTypes, bytesRead, truncated, invalidValues,
                sinkFailures, problems);
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
                problem(source.path() + ": rolling event log has no " + range(expected, index - 1)
                        + " (between events_" + (expected - 1) + " and events_" + index + "); the events in "
                        + (index - 1 == expected ? "it" : "them") + " are missing");
            }
            expected = index + 1;
        }
    }

    private static String range(long from, long to) {
        return from == to ? "events_" + from + " file" : "events_" + from + " to events_" + to + " files";
    }

    private void readPart(Path part, boolean last) {
        readPart(part, Position.START, false);
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
            Codec codec = chooseCodec(named, head);
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
            InputStream stream = in;
            try (stream) { // closing frees the decompressor's native buffers
                scanner.scan(stream, this);
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
                        + bytes(limits.ratioFreeBytes()) + ", " + bytes(limits.maxDecompressedBytes()) + " in all; "
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

    /** The codec to read with, reconciling the file name with the bytes; null (after a problem) to skip. */
    private Codec chooseCodec(Codec named, byte[] head) {
        Codec sniffed = Codec.sniff(head, head.length);
        if (sniffed == Codec.LZF) {
            problem(file + ": lzf-compressed event logs are not supported (no LZF library); decompress it first");
            return null;
        }
        if (named != Codec.PLAIN && sniffed != named) {
            if (sniffed == null) {
                problem(file + ": named ." + named.shortName + " but not " + named.description + " data (starts with "
                        + describeHead(head) + "); skipped");
                return null;
            }
            problem(file + ": named ." + named.shortName + " but holds " + sniffed.description
                    + " data; reading it as such");
            return sniffed;
        }
        if (sniffed == null) {
            if (looksBinary(head)) {
                problem(file + ": binary data, not a JSON event log (starts with " + describeHead(head) + "); skipped");
                return null;
            }
            return Codec.PLAIN; // text: read it, malformed lines will be reported one by one
        }
        if (sniffed != Codec.PLAIN && named == Codec.PLAIN) {
            problem(file + ": no codec suffix but the data is " + sniffed.description + "-compressed; reading it as such");
        }
        return sniffed;
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
        List<String> cuts = null;
        if (len > limits.maxStringBytes()) {
            cuts = new ArrayList<>(1);
            len = LongStrings.cut(buf, off, len, limits.maxStringBytes(), cuts);
        }
        SparkEvent event;
        try {
            try {
                event = decoder.decode(buf, off, len);
            } catch (com.fasterxml.jackson.core.JsonParseException e) {
                String m = e.getOriginalMessage();
                if (m == null || !m.contains("Invalid UTF-8")) {
                    throw e;
                }
                // Spark writes UTF-8, but a damaged file is still read: the bad bytes are replaced
                byte[] fixed = replaceInvalidUtf8(buf, off, len);
                warnLine(lineNo, "invalid UTF-8 bytes replaced with "
                        + (fixed == buf ? "'?'" : "U+FFFD") + " (the file is damaged)");
                event = fixed == buf ? decoder.decode(buf, off, len) : decoder.decode(fixed, 0, fixed.length);
            }
        } catch (InvalidEventException e) {
            malformed++;
            partMalformed++;
            warnCuts(lineNo, cuts);
            warnValues(lineNo);
            problem(file + ":" + lineNo + ": " + e.getMessage());
            return;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            if (!complete) {
                truncated = true;
                if (scanner.failure() == null) { // else the stream failure is the one message
                    problem(file + ":" + lineNo + ": last line is cut off (no newline, incomplete JSON); the log ends early");
                }
                return;
            }
            malformed++;
            partMalformed++;
            problem(file + ":" + lineNo + ": " + describe(e));
            return;
        }
        warnCuts(lineNo, cuts);
        warnValues(lineNo);
        if (event instanceof SparkEvent.Unknown u) {
            unknown++;
            unknownTypes.merge(u.type(), 1L, Long::sum);
        } else {
            events++;
            partEvents++;
        }
        deliver(event, file + ":" + lineNo + ":");
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

    private void deliver(SparkEvent event, String where) {
        if (!containSinkFailures) {
            sink.accept(event);
            return;
        }
        try {
            sink.accept(event);
        } catch (RuntimeException | StackOverflowError e) {
            sinkFailures++;
            problem(where + " " + eventName(event) + " could not be applied (" + e.getClass().getSimpleName() + ": "
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

    @Override
    public void oversized(long scannedLine, long length, boolean complete) {
        if (alreadyRead(scannedLine, complete)) {
            return;
        }
        long lineNo = lineBase + scannedLine;
        malformed++;
        partMalformed++;
        if (!complete) {
            truncated = true;
        }
        problem(file + ":" + lineNo + ": line of " + length + (complete ? "" : "+") + " bytes is longer than the "
                + maxLineBytes + "-byte limit (sparkscope.eventlog.maxLineBytes); skipped");
    }

    private void problem(String message) {
        if (problems.size() >= EventLogReader.MAX_KEPT_PROBLEMS) {
            suppressedProblems++;
            return;
        }
        problems.add(message);
        problemSink.accept(message);
    }

    private static String describe(Throwable e) {
        if (e instanceof TokenBudget.EventTooLargeException) {
            return e.getMessage();
        }
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
            String where = j.getLocation() == null ? "" : " at column " + j.getLocation().getColumnNr();
            return "malformed JSON" + where + ": " + Json.firstLine(j.getOriginalMessage());
        }
        if (e instanceof StackOverflowError) {
            return "JSON nested too deeply";
        }
        if (e instanceof IOException) {
            return "malformed JSON: " + message(e);
        }
        return "cannot decode event: " + e.getClass().getSimpleName() + ": " + message(e);
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : Json.firstLine(m);
    }

    /** A byte count as people write it: in GiB or MiB when it is a whole number of them. */
    static String bytes(long n) {
        if (n >= 1L << 30 && n % (1L << 30) == 0) {
            return (n >> 30) + " GiB";
        }
        if (n >= 1L << 20 && n % (1L << 20) == 0) {
            return (n >> 20) + " MiB";
        }
        return n + " bytes";
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

    /** NUL or other control bytes that never occur in JSON text. */
    static boolean looksBinary(byte[] head) {
        int control = 0;
        for (byte b : head) {
            if (b == 0) {
                return true;
            }
            if ((b & 0xFF) < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f') {
                control++;
            }
        }
        return control > head.length / 100;
    }

    private static String describeHead(byte[] head) {
        StringBuilder sb = new StringBuilder();
        int n = Math.min(8, head.length);
        if (!looksBinary(head)) {
            sb.append('"');
            for (int i = 0; i < Math.min(20, head.length) && head[i] != '\n' && head[i] != '\r'; i++) {
                sb.append((char) (head[i] & 0xFF));
            }
            return sb.append('"').toString();
        }
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " ").append(String.format("%02x", head[i] & 0xFF));
        }
        return sb.toString();
    }
}
