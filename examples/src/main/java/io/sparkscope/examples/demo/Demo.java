package io.sparkscope.examples.demo;

import io.sparkscope.examples.Examples;
import io.sparkscope.examples.jobs.Catalog;
import io.sparkscope.examples.jobs.ExampleJob;

import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The one-command demo: an embedded PostgreSQL, the example applications run with the real Sparkscope listener
 * attached, and the web server in its own JVM, until Ctrl-C.
 *
 * <pre>java -jar examples/target/sparkscope-demo.jar [--data-dir DIR] [--port 7070] [--examples quick|all|a,b]</pre>
 *
 * <p>Each example runs in its own JVM (its own Spark application, and the JVM options it needs, such as a small
 * heap for the GC example); the web server runs in another, because Spark ships the servlet API unshaded and its
 * version clashes with the web server's. Ctrl-C (or SIGTERM) stops the running example, the server and PostgreSQL, in that order.
 */
public final class Demo {
    /** Exit status: bad command line or unusable environment (port, data directory, a running demo). */
    static final int USAGE = 2;

    private final DemoOptions opts;
    private final PrintStream out;
    private final Path logs;
    private final Object lock = new Object();
    private volatile boolean stopping;
    private boolean closed;
    private DemoLock demoLock;
    private DemoDatabase db;
    private Process server;
    private Process job;

    private Demo(DemoOptions opts, PrintStream out) {
        this.opts = opts;
        this.out = out;
        this.logs = opts.dataDir().resolve("logs");
    }

    public static void main(String[] args) {
        System.exit(run(System.out, args));
    }

    /** Runs the demo; returns the exit status (tests call this). With {@code --no-wait} it stops by itself. */
    public static int run(PrintStream out, String... args) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            out.print(DemoOptions.USAGE);
            return 0;
        }
        if (List.of(args).contains("--list")) {
            for (ExampleJob j : Catalog.all()) {
                out.printf("  %-20s %s%s%n", j.name(), j.title(), j.quick() ? "  (quick)" : "");
            }
            return 0;
        }
        DemoOptions opts;
        try {
            opts = DemoOptions.parse(args);
        } catch (DemoOptions.BadUsage e) {
            out.println("sparkscope demo: " + e.getMessage());
            out.print(DemoOptions.USAGE);
            return USAGE;
        }
        Demo demo = new Demo(opts, out);
        Thread hook = new Thread(() -> demo.shutdown("stopping (Ctrl-C)"), "sparkscope-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return demo.runDemo();
        } finally {
            demo.shutdown(null);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook is running or ran
            }
        }
    }

    private int runDemo() {
        out.println("Sparkscope demo: data in " + opts.dataDir());
        // 1. Environment checks, all before anything starts.
        String problem = prepareDataDir();
        if (problem != null) {
            out.println("sparkscope demo: " + problem);
            return USAGE;
        }
        Path lockFile = opts.dataDir().resolve("demo.lock");
        try {
            demoLock = DemoLock.tryAcquire(lockFile);
        } catch (IOException e) {
            out.println("sparkscope demo: cannot use data directory " + opts.dataDir() + ": cannot write "
                    + lockFile.getFileName() + " (" + e.getMessage() + "). Choose another with --data-dir DIR.");
            return USAGE;
        }
        if (demoLock == null) {
            out.println("sparkscope demo: another demo is already running on " + opts.dataDir() + " (pid "
                    + DemoLock.holder(lockFile) + "). Stop it with Ctrl-C in its terminal, or start this one with"
                    + " another --data-dir DIR (and --port N).");
            return USAGE;
        }
        if (!opts.noServer() && !portFree(opts.bind(), opts.port())) {
            out.println("sparkscope demo: port " + opts.port() + " on " + opts.bind() + " is already in use (another"
                    + " demo or program). Choose another with --port N, e.g. --port " + suggestPort(opts.bind())
                    + ".");
            return USAGE;
        }
        Path serverJar = opts.serverJar() != null ? opts.serverJar() : defaultServerJar();
        if (!opts.noServer() && (serverJar == null || !Files.isRegularFile(serverJar))) {
            out.println("sparkscope demo: the server jar " + (serverJar == null ? "" : serverJar + " ")
                    + "was not found. Build the project first (mvn -q -DskipTests package), or pass"
                    + " --server-jar FILE.");
            return USAGE;
        }

        // 2. PostgreSQL.
        long t0 = System.nanoTime();
        try {
            db = DemoDatabase.start(opts.dataDir().resolve("pg"), opts.pgPort(), opts.pgPortGiven());
        } catch (DemoDatabase.PortTaken e) {
            out.println("sparkscope demo: PostgreSQL cannot use --pg-port " + opts.pgPort() + ": " + e.getMessage()
                    + ". Choose another with --pg-port N, or leave it out to use " + DemoDatabase.DEFAULT_PORT
                    + " (or a free port when that is taken).");
            return USAGE;
        } catch (Exception e) {
            out.println("sparkscope demo: PostgreSQL did not start: " + firstLine(e) + " (details in "
                    + opts.dataDir().resolve("pg") + "/log, if any)");
            return 1;
        }
        out.printf(Locale.ROOT, "  PostgreSQL on port %d (%s, user %s), started in %.1f s%n", db.port(), db.url(),
                DemoDatabase.USER, seconds(t0));
        if (db.port() != opts.pgPort()) {
            out.println("  (port " + opts.pgPort() + " is taken by another program, so PostgreSQL uses " + db.port()
                    + " this time; --pg-port N chooses a port)");
        }

        // 3. The web server, first, so applications appear in it as they finish.
        String url = "http://" + hostForUrl(opts.bind()) + ":" + opts.port() + "/";
        boolean serverUp = !opts.noServer() && startServer(serverJar);
        if (serverUp) {
            out.println("  web server: " + url + " (applications appear as they finish)");
        }

        // 4. The examples.
        int failures = runExamples();
        if (stopping) {
            return 130;
        }

        // 5. Ready.
        if (!serverUp && server != null && server.isAlive()) {
            serverUp = waitForServer(60_000);
        }
        long apps = -1;
        try {
            apps = db.applicationCount();
        } catch (Exception e) {
            out.println("  cannot count applications: " + firstLine(e));
        }
        out.println();
        if (opts.noServer()) {
            out.println("Recorded " + apps + " applications in " + opts.dataDir() + (failures > 0 ? "; " + failures
                    + " example(s) failed to run, see " + logs : "") + ".");
            return failures > 0 ? 1 : 0;
        }
        if (!serverUp) {
            out.println("The web server did not start (log: " + logs.resolve("server.log") + "):");
            out.println(indent(ChildProcesses.tail(logs.resolve("server.log"), 5)));
            out.println("The " + apps + " recorded applications are in PostgreSQL at " + db.url() + " (user "
                    + DemoDatabase.USER + "); their event logs are in " + opts.dataDir().resolve("eventlogs")
                    + " (java -jar server/target/sparkscope.jar analyze <dir> shows the same diagnoses as text).");
            if (opts.noWait()) {
                return 1;
            }
        } else {
            out.println("Sparkscope is ready: " + url + "  (" + apps + " applications"
                    + (failures > 0 ? ", " + failures + " example(s) failed to run, see " + logs : "") + ")");
            if (opts.noWait()) {
                return fetchOnce(url) ? (failures > 0 ? 1 : 0) : 1;
            }
        }
        printCommands(serverJar);
        out.println("Press Ctrl-C to stop. The data stays in " + opts.dataDir() + "; the next start reuses it.");
        out.flush();
        waitUntilStopped(serverUp);
        return 0;
    }

    /**
     * What to paste to use the demo's database from another terminal while the demo runs: the URL alone is not
     * enough, the user must be given too (the command line's default is the login name, which PostgreSQL here does
     * not know).
     */
    private void printCommands(Path serverJar) {
        DemoCommands c = DemoCommands.of(serverJar, db.url(), DemoDatabase.USER);
        out.println("  While the demo runs, from another terminal:");
        out.println("    import more event logs: " + c.importLine("<event-log-dir>"));
        out.println("    a second web server:    " + c.serveLine(opts.port() + 1));
    }

    // ---- environment ----

    private String prepareDataDir() {
        Path dir = opts.dataDir();
        try {
            Files.createDirectories(dir);
            Files.createDirectories(dir.resolve("logs"));
            Files.createDirectories(dir.resolve("eventlogs"));
            Path probe = Files.createTempFile(dir, ".write-test", "");
            Files.delete(probe);
            return null;
        } catch (FileSystemException e) {
            String reason = e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
            return "cannot use data directory " + dir + ": it cannot be created or written (" + reason
                    + (e.getFile() != null && !e.getFile().equals(dir.toString()) ? ": " + e.getFile() : "")
                    + "). Choose another with --data-dir DIR.";
        } catch (IOException e) {
            return "cannot use data directory " + dir + ": " + e.getMessage() + ". Choose another with --data-dir DIR.";
        }
    }

    static boolean portFree(String bind, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(bind), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private int suggestPort(String bind) {
        for (int p = opts.port() + 1; p < opts.port() + 50 && p <= 65535; p++) {
            if (portFree(bind, p)) {
                return p;
            }
        }
        return opts.port() + 1;
    }

    /** {@code server/target/sparkscope.jar} of the same build: this jar is {@code examples/target/…}. */
    static Path defaultServerJar() {
        String env = System.getenv("SPARKSCOPE_SERVER_JAR");
        if (env != null && !env.isBlank()) {
            return Paths.get(env);
        }
        try {
            Path self = Paths.get(Demo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // examples/target/sparkscope-demo.jar or examples/target/classes: two levels up is the module, three
            // the repository.
            Path target = self.getParent();
            Path repo = target.getParent().getParent();
            return repo.resolve("server").resolve("target").resolve("sparkscope.jar");
        } catch (Exception e) {
            return null;
        }
    }

    // ---- server ----

    private boolean startServer(Path serverJar) {
        List<String> cmd = new ArrayList<>(List.of(ChildProcesses.java(), "-jar", serverJar.toString(), "serve",
                "--db", db.url(), "--user", DemoDatabase.USER, "--port", Integer.toString(opts.port()),
                "--bind", opts.bind()));
        try {
            synchronized (lock) {
                if (stopping) {
                    return false;
                }
                server = ChildProcesses.start(cmd, logs.resolve("server.log"));
            }
        } catch (IOException e) {
            out.println("  the web server could not be started: " + e.getMessage());
            return false;
        }
        return waitForServer(30_000);
    }

    /** Polls /healthz until it answers 200, the server process ends, or the time is up. */
    private boolean waitForServer(long timeoutMs) {
        long deadline = System.currentTimeMillis() + timeoutMs;
        String health = "http://" + hostForUrl(opts.bind()) + ":" + opts.port() + "/healthz";
        while (System.currentTimeMillis() < deadline && !stopping) {
            if (server == null || !server.isAlive()) {
                return false;
            }
            if (httpStatus(health) == 200) {
                return true;
            }
            sleep(250);
        }
        return false;
    }

    private boolean fetchOnce(String url) {
        int search = httpStatus(url);
        int api = httpStatus(url + "api/v1/apps");
        out.println("  checked: GET / -> " + search + ", GET /api/v1/apps -> " + api);
        return search == 200 && api == 200;
    }

    static int httpStatus(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(10_000);
            int code = c.getResponseCode();
            (code < 400 ? c.getInputStream() : c.getErrorStream()).readAllBytes();
            c.disconnect();
            return code;
        } catch (IOException | NullPointerException e) {
            return -1;
        }
    }

    // ---- examples ----

    private record Run(ExampleJob job, int scale) {
        String tag() {
            return job.name() + "@" + scale;
        }

        String label() {
            return job.scales().size() > 1 ? job.name() + " #" + scale : job.name();
        }
    }

    /** @return how many runs failed to run (a job that fails on purpose inside Spark still runs fine) */
    private int runExamples() {
        List<Run> runs = new ArrayList<>();
        for (ExampleJob j : opts.examples()) {
            for (int s : j.scales()) {
                runs.add(new Run(j, s));
            }
        }
        Set<String> known;
        try {
            known = opts.rerun() ? Set.of() : db.recordedRuns();
        } catch (Exception e) {
            out.println("  cannot read recorded runs (" + firstLine(e) + "); running all");
            known = Set.of();
        }
        Set<String> recorded = known;
        long todo = runs.stream().filter(r -> !recorded.contains(r.tag())).count();
        out.println(todo == 0
                ? "All " + runs.size() + " example applications are already recorded (--rerun runs them again)."
                : "Running " + todo + " of " + runs.size() + " example applications (Spark local mode, 2 cores;"
                + " logs in " + logs + "):");
        int failures = 0;
        int n = 0;
        for (Run r : runs) {
            n++;
            String head = String.format(Locale.ROOT, "  [%2d/%d] %-22s", n, runs.size(), r.label());
            if (recorded.contains(r.tag())) {
                out.println(head + "already recorded");
                continue;
            }
            if (stopping) {
                break;
            }
            out.print(head + r.job().title() + " … ");
            out.flush();
            long t0 = System.nanoTime();
            int status = runJob(r);
            if (stopping) {
                out.println("stopped");
                break;
            }
            String took = String.format(Locale.ROOT, "%.0f s", seconds(t0));
            Optional<DemoDatabase.RunSummary> summary = Optional.empty();
            try {
                summary = db.latestRun(r.tag());
            } catch (Exception e) {
                // reported below as not recorded
            }
            if (status != 0) {
                failures++;
                out.println("FAILED (exit " + status + ") after " + took + ": see " + jobLog(r));
            } else if (summary.isEmpty()) {
                failures++;
                out.println(took + ", but the listener recorded nothing: see " + jobLog(r));
            } else {
                List<String> f = summary.get().findings();
                out.println(took + (f.isEmpty() ? ", no findings" : ": " + String.join(", ", f)));
            }
        }
        return failures;
    }

    private Path jobLog(Run r) {
        return logs.resolve(r.job().name() + (r.job().scales().size() > 1 ? "-" + r.scale() : "") + ".log");
    }

    private int runJob(Run r) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ChildProcesses.java());
        cmd.addAll(ChildProcesses.SPARK_JAVA_OPTIONS);
        cmd.addAll(r.job().jvmOptions());
        cmd.addAll(List.of("-cp", ChildProcesses.classPath(), Examples.class.getName(),
                "--out", opts.dataDir().resolve("eventlogs").toString(),
                "--work", opts.dataDir().resolve("work").toString(),
                "--db", db.url(), "--db-user", DemoDatabase.USER,
                "--spool", opts.dataDir().resolve("spool").toString(),
                "--scale", Integer.toString(r.scale()), "--tag", r.tag(), r.job().name()));
        try {
            Process p;
            synchronized (lock) {
                if (stopping) {
                    return 130;
                }
                job = ChildProcesses.start(cmd, jobLog(r));
            }
            p = job;
            return p.waitFor();
        } catch (IOException e) {
            out.println("cannot start: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } finally {
            synchronized (lock) {
                job = null;
            }
        }
    }

    // ---- lifetime ----

    private final CountDownLatch stopped = new CountDownLatch(1);

    /** Until Ctrl-C, or until the server dies if it was up (without a server, PostgreSQL stays for other tools). */
    private void waitUntilStopped(boolean watchServer) {
        try {
            while (!stopping) {
                if (watchServer && server != null && !server.isAlive()) {
                    out.println("The web server stopped (exit " + server.exitValue() + "; log: "
                            + logs.resolve("server.log") + "); stopping.");
                    return;
                }
                if (stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the running example, the server and PostgreSQL; safe to call twice and from the shutdown hook. */
    private void shutdown(String reason) {
        Process j;
        Process s;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            stopping = true;
            j = job;
            s = server;
        }
        if (reason != null) {
            out.println();
            out.println(reason + ": stopping " + (j != null ? "the running example, " : "")
                    + "the web server and PostgreSQL…");
        }
        ChildProcesses.stop(j, 15_000);
        ChildProcesses.stop(s, 10_000);
        if (db != null) {
            try {
                db.close();
            } catch (Exception e) {
                out.println("  PostgreSQL did not stop cleanly: " + firstLine(e));
            }
            if (reason != null) {
                out.println("Stopped. The data stays in " + opts.dataDir() + ".");
            }
        }
        if (demoLock != null) {
            try {
                demoLock.close();
            } catch (IOException ignored) {
                // the OS releases it with the process anyway
            }
        }
        stopped.countDown();
        out.flush();
    }

    // ---- small helpers ----

    private static String hostForUrl(String bind) {
        return bind.equals("0.0.0.0") || bind.equals("::") ? "localhost" : bind.contains(":") ? "[" + bind + "]" : bind;
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private static String indent(String s) {
        return "    " + s.replace("\n", "\n    ");
    }
}
