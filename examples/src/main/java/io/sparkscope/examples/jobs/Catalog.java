package io.sparkscope.examples.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every example job, in the order the demo runs them. */
public final class Catalog {
    private static final Map<String, ExampleJob> JOBS = new LinkedHashMap<>();

    static {
        for (ExampleJob j : List.of(new CleanJob(), new SkewedJoin(), new SpillingSort(), new FailingStage(),
                new FlakyTasks(), new TinyTasks(), new JavaSerializer(), new KryoSerializer(), new TooFewPartitions(),
                new GcPressure(), new RecurringEtl(), new DriverHeavy())) {
            JOBS.put(j.name(), j);
        }
    }

    private Catalog() {
    }

    public static List<ExampleJob> all() {
        return List.copyOf(JOBS.values());
    }

    public static List<ExampleJob> quick() {
        return all().stream().filter(ExampleJob::quick).toList();
    }

    public static Optional<ExampleJob> find(String name) {
        return Optional.ofNullable(JOBS.get(name));
    }

    /**
     * {@code quick}, {@code all}, or a comma-separated list of job names.
     *
     * @throws IllegalArgumentException naming an unknown job and listing the known ones
     */
    public static List<ExampleJob> select(String spec) {
        if (spec == null || spec.isBlank() || spec.equals("all")) {
            return all();
        }
        if (spec.equals("quick")) {
            return quick();
        }
        List<ExampleJob> out = new ArrayList<>();
        for (String name : spec.split(",")) {
            String n = name.trim();
            if (n.isEmpty()) {
                continue;
            }
            ExampleJob j = JOBS.get(n);
            if (j == null) {
                throw new IllegalArgumentException("unknown example '" + n + "' (known: quick, all, "
                        + String.join(", ", JOBS.keySet()) + ")");
            }
            if (!out.contains(j)) {
                out.add(j);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no example named in '" + spec + "'");
        }
        return out;
    }
}
