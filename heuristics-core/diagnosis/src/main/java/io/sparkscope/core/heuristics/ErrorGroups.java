package io.sparkscope.core.heuristics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Groups failure messages that differ only in what changes from one failure to the next (addresses, ids, hosts,
 * numbers, temporary paths, hex), so 45 out-of-memory errors that each name another buffer address count as one
 * error seen 45 times. Each group keeps its first occurrence verbatim, because the real text is what a person
 * searches for.
 */
public final class ErrorGroups {
    /** Lines of the first occurrence kept verbatim (the exception line and the top of its stack). */
    public static final int FIRST_LINES = 5;
    private static final int FIRST_CHARS = 1500;
    private static final int SIGNATURE_CHARS = 300;

    private static final Pattern UUID = Pattern.compile(
            "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b");
    private static final Pattern HEX = Pattern.compile("\\b0x[0-9a-fA-F]+\\b|\\b[0-9a-f]{12,}\\b");
    private static final Pattern URI_OR_PATH = Pattern.compile(
            "\\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s,;)\\]}'\"]+|(?<![\\w.>])(?:file:)?/[^\\s,;:)\\]}'\"]+");
    private static final Pattern IPV4 = Pattern.compile("/?\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b");
    private static final Pattern HOST_IN_CONTEXT = Pattern.compile(
            "(?<=\\()([\\w.-]+)(?= executor )|(?<=BlockManagerId\\()(\\s*[\\w-]+\\s*,\\s*)([\\w.-]+)"
                    + "|(?<=\\b(?:host|on|from) )([a-zA-Z][\\w-]*\\.[\\w.-]+|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\\b");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9]");
    private static final Pattern HOST_NAME = Pattern.compile("[a-z0-9-]+(?:\\.[a-z0-9-]+)+");
    private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z_<])\\d+(?:\\.\\d+)*");

    private final Map<String, Group> groups = new LinkedHashMap<>();

    private static final class Group {
        final String first;
        int count;
        final List<String> stages = new ArrayList<>();
        final List<String> executors = new ArrayList<>();

        Group(String first) {
            this.first = first;
        }
    }

    /** Adds one failure; {@code stageKey} and {@code executorId} may be null. */
    public void add(String error, String stageKey, String executorId) {
        String text = error == null || error.isBlank() ? "(no message)" : error;
        Group g = groups.computeIfAbsent(signature(text), k -> new Group(firstLines(text)));
        g.count++;
        if (stageKey != null && !g.stages.contains(stageKey)) {
            g.stages.add(stageKey);
        }
        if (executorId != null && !g.executors.contains(executorId) && g.executors.size() < 50) {
            g.executors.add(executorId);
        }
    }

    public boolean isEmpty() {
        return groups.isEmpty();
    }

    /** The largest groups first (ties: first seen first), at most {@code max}, as finding details. */
    public List<Map<String, Object>> top(int max) {
        List<Map.Entry<String, Group>> all = new ArrayList<>(groups.entrySet());
        all.sort((a, b) -> Integer.compare(b.getValue().count, a.getValue().count));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, Group> e : all.subList(0, Math.min(max, all.size()))) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("signature", e.getKey());
            m.put("count", e.getValue().count);
            m.put("first", e.getValue().first);
            m.put("stages", List.copyOf(e.getValue().stages));
            m.put("executors", List.copyOf(e.getValue().executors));
            out.add(m);
        }
        return out;
    }

    /** Number of distinct errors. */
    public int size() {
        return groups.size();
    }

    /**
     * The message's first line with the parts that vary between failures masked: URLs and absolute paths as
     * {@code <path>}, UUIDs as {@code <uuid>}, hex as {@code <hex>}, IP addresses and host names as {@code <host>},
     * other numbers as {@code <n>}.
     */
    public static String signature(String error) {
        if (error == null) {
            return "";
        }
        String line = error.strip();
        int nl = line.indexOf('\n');
        line = (nl >= 0 ? line.substring(0, nl) : line).strip();
        String s = UUID.matcher(line).replaceAll("<uuid>");
        s = IPV4.matcher(s).replaceAll("<host>");
        s = URI_OR_PATH.matcher(s).replaceAll("<path>");
        s = HEX.matcher(s).replaceAll("<hex>");
        s = maskHostsInContext(s);
        s = maskHostNames(s);
        s = NUMBER.matcher(s).replaceAll("<n>");
        return s.length() > SIGNATURE_CHARS ? s.substring(0, SIGNATURE_CHARS) + "…" : s;
    }

    private static String maskHostsInContext(String s) {
        Matcher m = HOST_IN_CONTEXT.matcher(s);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (m.group(1) != null) {
                replacement = "<host>";
            } else if (m.group(3) != null) {
                replacement = m.group(2) + "<host>";
            } else {
                replacement = "<host>";
            }
            m.appendReplacement(b, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(b);
        return b.toString();
    }

    // Lower-case dotted names with a digit or a dash ("hostname-08.domain.com"); class and file names have
    // upper-case letters or underscores, so they stay.
    private static String maskHostNames(String s) {
        Matcher m = TOKEN.matcher(s);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String t = m.group();
            boolean host = HOST_NAME.matcher(t).matches() && t.chars().anyMatch(c -> c == '-' || Character.isDigit(c))
                    && !t.chars().allMatch(c -> c == '.' || Character.isDigit(c))
                    && !t.toLowerCase(Locale.ROOT).matches(".*\\.(scala|java|py|jar|class|txt|json|parquet|csv)");
            m.appendReplacement(b, Matcher.quoteReplacement(host ? "<host>" : t));
        }
        m.appendTail(b);
        return b.toString();
    }

    /** The first {@link #FIRST_LINES} lines of a message as written, at most 1 500 characters. */
    public static String firstLines(String text) {
        if (text == null) {
            return "";
        }
        String[] parts = text.strip().split("\\R", FIRST_LINES + 1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(FIRST_LINES, parts.length); i++) {
            if (i > 0) {
                out.append('\n');
            }
            out.append(parts[i].stripTrailing());
        }
        return out.length() > FIRST_CHARS ? out.substring(0, FIRST_CHARS) + "…" : out.toString();
    }
}
