package io.sparkscope.examples.corpus;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.heuristics.Heuristic;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What Sparkscope should say about one application, written by hand from what the app (or real log) does.
 *
 * @param app          the app's name (defaults to the file name without {@code .json})
 * @param problem      one line, for the reader of the label
 * @param causes       the root causes, each one entry; an entry {@code "A|B"} counts as found when either heuristic
 *                     is; empty for a clean app
 * @param firstAllowed heuristics that may come first in "Fix this first"; empty means any name in {@code causes}
 * @param notHigh      heuristics whose findings must not be HIGH here (on a clean app no finding may be HIGH)
 * @param pending      the cause is a finding Sparkscope does not have yet: {@code causes} may name it, and the app is
 *                     scored apart from the others
 * @param log          for a label of a shared real log: its path under the shared event-log folder
 * @param why          what in the app or log justifies the label
 */
public record Label(String app, String problem, List<String> causes, List<String> firstAllowed, List<String> notHigh,
                    boolean pending, String log, String why) {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public Label(@JsonProperty("app") String app, @JsonProperty("problem") String problem,
                 @JsonProperty("causes") List<String> causes, @JsonProperty("firstAllowed") List<String> firstAllowed,
                 @JsonProperty("notHigh") List<String> notHigh, @JsonProperty("pending") boolean pending,
                 @JsonProperty("log") String log, @JsonProperty("why") String why) {
        this.app = app;
        this.problem = problem;
        this.causes = causes == null ? List.of() : List.copyOf(causes);
        this.firstAllowed = firstAllowed == null || firstAllowed.isEmpty() ? alternatives(this.causes)
                : List.copyOf(firstAllowed);
        this.notHigh = notHigh == null ? List.of() : List.copyOf(notHigh);
        this.pending = pending;
        this.log = log;
        this.why = why;
    }

    /** A clean app: nothing to fix. */
    public boolean clean() {
        return causes.isEmpty();
    }

    /** The heuristic names of one {@code causes} entry. */
    public static List<String> names(String entry) {
        List<String> out = new ArrayList<>();
        for (String n : entry.split("\\|")) {
            if (!n.isBlank()) {
                out.add(n.trim());
            }
        }
        return out;
    }

    private static List<String> alternatives(List<String> causes) {
        List<String> out = new ArrayList<>();
        causes.forEach(c -> out.addAll(names(c)));
        return List.copyOf(out);
    }

    /** The ids of the heuristics on the class path (the built-in ones and any plug-in), as findings name them. */
    public static Set<String> knownHeuristics() {
        Set<String> out = new TreeSet<>();
        ServiceLoader.load(Heuristic.class).forEach(h -> out.add(h.id()));
        return out;
    }

    /**
     * Reads and checks one label file.
     *
     * @throws LabelException naming the file and what is wrong: unreadable JSON, an unknown field, or a heuristic
     *                        that does not exist (allowed in {@code causes} only when {@code pending})
     */
    public static Label read(Path file, Set<String> known) {
        Label raw;
        try {
            raw = MAPPER.readValue(file.toFile(), Label.class);
        } catch (JsonProcessingException e) {
            throw new LabelException(file + ": " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
        } catch (IOException e) {
            throw new LabelException(file + ": cannot read (" + e.getMessage() + ")");
        }
        String name = file.getFileName().toString().replaceFirst("\\.json$", "");
        Label l = new Label(raw.app() == null ? name : raw.app(), raw.problem(), raw.causes(),
                raw.firstAllowed(), raw.notHigh(), raw.pending(), raw.log(), raw.why());
        if (!l.pending()) {
            check(file, "causes", alternatives(l.causes()), known);
            check(file, "firstAllowed", l.firstAllowed(), known);
        }
        check(file, "notHigh", l.notHigh(), known);
        return l;
    }

    /** Every {@code *.json} label of a folder, sorted by file name. */
    public static List<Label> readAll(Path dir, Set<String> known) {
        if (!Files.isDirectory(dir)) {
            throw new LabelException(dir + ": no such label folder");
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted()
                    .map(p -> read(p, known)).toList();
        } catch (IOException e) {
            throw new LabelException(dir + ": cannot list (" + e.getMessage() + ")");
        }
    }

    private static void check(Path file, String field, List<String> names, Set<String> known) {
        for (String n : names) {
            if (!known.contains(n)) {
                throw new LabelException(file + ": unknown heuristic '" + n + "' in " + field
                        + " (known: " + String.join(", ", known) + "; a finding that does not exist yet needs "
                        + "\"pending\": true)");
            }
        }
    }

    /** A label that cannot be used; the message is one line naming the file and the problem. */
    public static final class LabelException extends RuntimeException {
        public LabelException(String message) {
            super(message);
        }
    }
}
