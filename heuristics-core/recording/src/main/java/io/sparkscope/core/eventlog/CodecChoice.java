package io.sparkscope.core.eventlog;

import java.util.function.Consumer;

/**
 * Decides how to read one part of a log from its name and its first bytes. A file's suffix and its content often
 * disagree (a log compressed by hand, a copy renamed, a file that is not an event log at all), and the bytes are
 * the better witness; this class holds that judgement so the reading loop ({@link LogRead}) only reads.
 */
final class CodecChoice {
    private CodecChoice() {
    }

    /**
     * The codec to read with, reconciling the file name with the bytes; null (after a problem) to skip.
     *
     * @param file    the part, as problems name it
     * @param named   what the file's suffix says ({@link Codec#PLAIN} for none)
     * @param head    the part's first bytes
     * @param problem where a disagreement or a refusal is reported
     */
    static Codec choose(String file, Codec named, byte[] head, Consumer<String> problem) {
        Codec sniffed = Codec.sniff(head, head.length);
        if (sniffed == Codec.LZF) {
            problem.accept(file + ": lzf-compressed event logs are not supported (no LZF library); decompress it first");
            return null;
        }
        if (named != Codec.PLAIN && sniffed != named) {
            if (sniffed == null) {
                problem.accept(file + ": named ." + named.shortName + " but not " + named.description
                        + " data (starts with " + describeHead(head) + "); skipped");
                return null;
            }
            problem.accept(file + ": named ." + named.shortName + " but holds " + sniffed.description
                    + " data; reading it as such");
            return sniffed;
        }
        if (sniffed == null) {
            if (looksBinary(head)) {
                problem.accept(file + ": binary data, not a JSON event log (starts with " + describeHead(head)
                        + "); skipped");
                return null;
            }
            return Codec.PLAIN; // text: read it, malformed lines will be reported one by one
        }
        if (sniffed != Codec.PLAIN && named == Codec.PLAIN) {
            problem.accept(file + ": no codec suffix but the data is " + sniffed.description
                    + "-compressed; reading it as such");
        }
        return sniffed;
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
