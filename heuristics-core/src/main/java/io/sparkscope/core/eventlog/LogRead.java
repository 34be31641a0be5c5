package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
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

    private final Consumer<SparkEvent> sink;
    private final Consumer<String> problemSink;
    private final int maxLineBytes;
    private final EventDecoder decoder = new EventDecoder();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Long> unknownTypes = new HashMap<>();
    private long suppressedProblems;

    private long lines;
    private long events;
    private long malformed;
    private long unknown;
    private long bytesRead;
    private boolean truncated;

    // per part
    private String file;
    private LineScanner scanner;
    private long partEvents;
    private long partMalformed;

    LogRead(Consumer<SparkEvent> sink, Consumer<String> problems, int maxLineBytes) {
        this.sink = sink;
        this.problemSink = problems;
        this.maxLineBytes = maxLineBytes;
    }

    ReadStats run(EventLogSource source) {
        List<Path> parts = source.parts();
        for (int i = 0; i < parts.size(); i++) {
            readPart(parts.get(i), i == parts.size() - 1);
        }
        if (suppressedProblems > 0) {
            String note = source.path() + ": " + suppressedProblems + " more problems not shown";
            problems.add(note);
            problemSink.accept(note);
        }
        return new ReadStats(lines, events, malformed, unknown, unknownTypes, bytesRead, truncated, problems);
    }

    private void readPart(Path part, boolean last) {
        file = part.toString();
        partEvents = 0;
        partMalformed = 0;
        Codec named = Codec.ofShortName(FileNames.parse(part.getFileName().toString()).codec());
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(part), READ_BUFFER)) {
            raw.mark(HEAD_BYTES);
            byte[] head = raw.readNBytes(HEAD_BYTES);
            raw.reset();
            if (head.length == 0) {
                problem(file + ": empty file, no events");
                return;
            }
            Codec codec = chooseCodec(named, head);
            if (codec == null) {
                return;
            }
            InputStream in;
            try {
                in = codec.open(raw);
            } catch (IOException | RuntimeException e) {
                problem(file + ": cannot read as " + codec.description + " data: " + message(e));
                return;
            }
            scanner = new LineScanner(maxLineBytes);
            try (in) { // closing frees the decompressor's native buffers
                scanner.scan(in, this);
            }
            lines += scanner.lines();
            bytesRead += scanner.bytesRead();
            IOException failure = scanner.failure();
            if (failure != null) {
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
    public void line(byte[] buf, int off, int len, long lineNo, boolean complete) {
        if (isBlank(buf, off, len)) {
            return;
        }
        SparkEvent event;
        try {
            event = decoder.decode(buf, off, len);
        } catch (InvalidEventException e) {
            malformed++;
            partMalformed++;
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
        if (event instanceof SparkEvent.Unknown u) {
            unknown++;
            unknownTypes.merge(u.type(), 1L, Long::sum);
        } else {
            events++;
            partEvents++;
        }
        sink.accept(event);
    }

    @Override
    public void oversized(long lineNo, long length, boolean complete) {
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
