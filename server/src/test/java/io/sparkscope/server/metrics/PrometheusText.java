package io.sparkscope.server.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for tests. No Java parser of the format
 * resolves here (client_java 1.x only writes it), so this follows the format's grammar line by line and fails on
 * anything a Prometheus server would refuse: a malformed line, a bad name or escape, a value that is not a float, a
 * sample of a family without a TYPE line, a family's TYPE given twice, or the same series twice.
 */
public final class PrometheusText {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE_NAME = Pattern.compile(NAME);
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern VALUE = Pattern.compile("[+-]?(?:Inf|NaN|(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)");
    private static final List<String> SUFFIXES = List.of("_bucket", "_count", "_sum", "_total", "_created");

    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final Map<String, String> types = new HashMap<>();
    private final List<Sample> samples = new ArrayList<>();

    private PrometheusText() {
    }

    /** The samples of a whole scrape; an AssertionError naming the line for anything out of the grammar. */
    public static PrometheusText parse(String text) {
        PrometheusText p = new PrometheusText();
        Set<String> seen = new HashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int n = i + 1;
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                Matcher t = TYPE.matcher(line);
                if (t.matches()) {
                    if (p.types.put(t.group(1), t.group(2)) != null) {
                        throw new AssertionError("line " + n + ": second TYPE for " + t.group(1));
                    }
                } else if (line.startsWith("# TYPE") || line.startsWith("# HELP") && !HELP.matcher(line).matches()) {
                    throw new AssertionError("line " + n + ": malformed: " + line);
                }
                continue;
            }
            Sample s = p.sample(line, n);
            if (p.family(s.name()) == null) {
                throw new AssertionError("line " + n + ": " + s.name() + " has no TYPE line before it");
            }
            if (!seen.add(s.name() + new TreeMap<>(s.labels()))) {
                throw new AssertionError("line " + n + ": series given twice: " + line);
            }
            p.samples.add(s);
        }
        return p;
    }

    private String family(String sample) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : SUFFIXES) {
            if (sample.endsWith(suffix) && types.containsKey(sample.substring(0, sample.length() - suffix.length()))) {
                return sample.substring(0, sample.length() - suffix.length());
            }
        }
        return null;
    }

    private Sample sample(String line, int n) {
        int i = 0;
        Matcher m = SAMPLE_NAME.matcher(line);
        if (!m.lookingAt()) {
            throw new AssertionError("line " + n + ": no metric name: " + line);
        }
        String name = m.group();
        i = m.end();
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (line.charAt(i) != '}') {
                Matcher l = LABEL_NAME.matcher(line).region(i, line.length());
                if (!l.lookingAt() || line.charAt(l.end()) != '=' || line.charAt(l.end() + 1) != '"') {
                    throw new AssertionError("line " + n + ": bad label at column " + (i + 1) + ": " + line);
                }
                String label = l.group();
                StringBuilder v = new StringBuilder();
                i = l.end() + 2;
                for (; line.charAt(i) != '"'; i++) {
                    char c = line.charAt(i);
                    if (c == '\\') {
                        char e = line.charAt(++i);
                        v.append(switch (e) {
                            case '\\' -> '\\';
                            case '"' -> '"';
                            case 'n' -> '\n';
                            default -> throw new AssertionError("line " + n + ": bad escape \\" + e + ": " + line);
                        });
                    } else {
                        v.append(c);
                    }
                }
                if (labels.put(label, v.toString()) != null) {
                    throw new AssertionError("line " + n + ": label " + label + " twice: " + line);
                }
                i++;
                if (line.charAt(i) == ',') {
                    i++;
                }
            }
            i++;
        }
        if (i >= line.length() || line.charAt(i) != ' ') {
            throw new AssertionError("line " + n + ": no space before the value: " + line);
        }
        String[] rest = line.substring(i + 1).split(" ", -1);
        if (rest.length > 2 || !VALUE.matcher(rest[0]).matches()
                || rest.length == 2 && !rest[1].matches("-?\\d+")) {
            throw new AssertionError("line " + n + ": bad value or timestamp: " + line);
        }
        String v = rest[0];
        double value = v.endsWith("Inf") ? (v.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
                : Double.parseDouble(v);
        return new Sample(name, labels, value);
    }

    public String type(String family) {
        return types.get(family);
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The samples of one name whose labels include every given pair. */
    public List<Sample> find(String name, String... labelPairs) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            if (!s.name().equals(name)) {
                continue;
            }
            boolean all = true;
            for (int i = 0; i < labelPairs.length; i += 2) {
                all &= labelPairs[i + 1].equals(s.labels().get(labelPairs[i]));
            }
            if (all) {
                out.add(s);
            }
        }
        return out;
    }

    /** The value of the one sample of this name and labels; an AssertionError when there is none or several. */
    public double value(String name, String... labelPairs) {
        List<Sample> found = find(name, labelPairs);
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " samples of " + name + " " + List.of(labelPairs) + ": " + found);
        }
        return found.get(0).value();
    }
}
