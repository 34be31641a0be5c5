package io.sparkscope.examples.corpus;

import io.sparkscope.examples.Examples;
import io.sparkscope.examples.jobs.JobContext;
import org.apache.commons.io.FileUtils;
import org.apache.spark.SparkConf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs corpus apps in this JVM, each writing its uncompressed event log alone in {@code <out>/<app>/}, so the scorer
 * finds an app's log by its name.
 *
 * <pre>CorpusRun [--out DIR] [--work DIR] [--conf KEY=VALUE]… [--fixed] list | all | app[,app…]…</pre>
 * {@code list} prints one line per app: name, a tab, the problem it shows, a tab, its JVM options (space-separated,
 * maybe none). Apps that need JVM options (a small heap) should each run in their own JVM with them.
 * {@code --conf} (repeatable) sets a Spark setting on top of the app's own, as a finding's advice would;
 * {@code --fixed} runs each app's fixed variant (the corpus's own fix of its problem) instead of the app.
 */
public final class CorpusRun {
    private CorpusRun() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get("target", "corpus", "eventlogs");
        Path work = null;
        List<String> names = new ArrayList<>();
        Map<String, String> conf = new LinkedHashMap<>();
        boolean fixed = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Paths.get(value(args, ++i));
                case "--work" -> work = Paths.get(value(args, ++i));
                case "--fixed" -> fixed = true;
                case "--conf" -> {
                    String kv = value(args, ++i);
                    try {
                        putSetting(conf, kv);
                    } catch (IllegalArgumentException e) {
                        System.err.println("corpus: " + e.getMessage());
                        System.exit(2);
                    }
                }
                default -> names.add(args[i]);
            }
        }
        if (names.equals(List.of("list"))) {
            for (CorpusApp app : CorpusApps.all()) {
                System.out.println(app.name() + "\t" + app.problem() + "\t" + String.join(" ", app.jvmOptions()));
            }
            return;
        }
        List<CorpusApp> apps;
        try {
            apps = select(names);
            if (fixed) {
                requireFixes(apps);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("corpus: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path workDir = work != null ? work : out.toAbsolutePath().getParent().resolve("work");
        // One failing app must not cost the others their run: report it and go on.
        List<String> failed = new ArrayList<>();
        for (CorpusApp app : apps) {
            try {
                System.out.println(app.name() + ": " + run(app, out, workDir, conf, fixed));
            } catch (Exception e) {
                System.err.println("corpus: " + app.name() + " failed: " + e);
                failed.add(app.name());
            }
        }
        if (!failed.isEmpty()) {
            System.err.println("corpus: failed: " + String.join(", ", failed));
            System.exit(1);
        }
    }

    /** {@code all} or app names (comma- or space-separated); an unknown name is an error naming it. */
    static List<CorpusApp> select(List<String> specs) {
        List<CorpusApp> out = new ArrayList<>();
        for (String spec : specs) {
            for (String n : spec.split(",")) {
                if (n.isBlank()) {
                    continue;
                }
                if (n.trim().equals("all")) {
                    out.addAll(CorpusApps.all());
                    continue;
                }
                out.add(CorpusApps.find(n.trim()).orElseThrow(() -> new IllegalArgumentException(
                        "unknown corpus app '" + n.trim() + "' (see 'list')")));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no app named (give all, or app names)");
        }
        return out;
    }

    /** Adds one {@code key=value} Spark setting; a malformed one is an error naming it. */
    static void putSetting(Map<String, String> conf, String kv) {
        int eq = kv.indexOf('=');
        if (eq <= 0 || !kv.substring(0, eq).trim().startsWith("spark.")) {
            throw new IllegalArgumentException("--conf needs spark.KEY=VALUE, got '" + kv + "'");
        }
        conf.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }

    /** Every app has a fixed variant, or an error naming the first without one and those that have one. */
    static void requireFixes(List<CorpusApp> apps) {
        for (CorpusApp app : apps) {
            if (!app.hasFix()) {
                throw new IllegalArgumentException("corpus app '" + app.name() + "' has no fixed variant (apps with "
                        + "one: " + String.join(", ", CorpusApps.all().stream().filter(CorpusApp::hasFix)
                        .map(CorpusApp::name).toList()) + ")");
            }
        }
    }

    /**
     * Runs one app with its event log alone in a fresh {@code out/<name>/}; returns the log.
     *
     * @throws IllegalStateException when the run ended without a complete log
     */
    public static Path run(CorpusApp app, Path out, Path workDir) throws Exception {
        return run(app, out, workDir, Map.of(), false);
    }

    /**
     * Runs one app, or its fixed variant, with extra Spark settings on top of its own (a finding's advice), its event
     * log alone in a fresh {@code out/<name>/}; returns the log.
     *
     * @throws IllegalStateException when the run ended without a complete log
     */
    public static Path run(CorpusApp app, Path out, Path workDir, Map<String, String> settings, boolean fixed)
            throws Exception {
        Path dir = out.resolve(app.name()).toAbsolutePath();
        FileUtils.deleteDirectory(dir.toFile());
        Files.createDirectories(dir);
        Files.createDirectories(workDir);
        // one plain file (Spark 4 would otherwise roll it into an eventlog_v2_ folder)
        SparkConf conf = Examples.baseConf(app.name(), dir, "none").set("spark.eventLog.rolling.enabled", "false")
                .set("spark.sql.warehouse.dir", workDir.resolve("spark-warehouse").toUri().toString());
        app.run(new JobContext(conf, 1, workDir.toAbsolutePath(), settings), fixed);
        return log(dir);
    }

    /** The one complete event log in an app's folder. */
    public static Path log(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> logs = files.filter(p -> !p.getFileName().toString().endsWith(".inprogress"))
                    .filter(p -> !p.getFileName().toString().startsWith(".")).toList();
            if (logs.size() != 1) {
                throw new IllegalStateException(dir + ": expected one complete event log, found " + logs.size());
            }
            return logs.get(0);
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            System.err.println("corpus: " + args[i - 1] + " needs a value");
            System.exit(2);
        }
        return args[i];
    }
}
