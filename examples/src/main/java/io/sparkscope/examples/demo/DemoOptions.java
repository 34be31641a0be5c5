package io.sparkscope.examples.demo;

import io.sparkscope.examples.jobs.Catalog;
import io.sparkscope.examples.jobs.ExampleJob;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The demo's command line.
 *
 * @param noWait   exit after the server answered once instead of serving until Ctrl-C (tests, CI)
 * @param noServer only record the examples into the database, then exit (no web server)
 * @param pgPort   PostgreSQL's port
 * @param pgPortGiven true when {@code --pg-port} chose it: then a taken port is an error rather than a fallback
 */
record DemoOptions(Path dataDir, int port, String bind, List<ExampleJob> examples, boolean rerun, boolean noWait,
                   boolean noServer, Path serverJar, int pgPort, boolean pgPortGiven) {

    static final String USAGE = """
            usage: java -jar examples/target/sparkscope-demo.jar [options]
              --data-dir DIR     where PostgreSQL's data, event logs and logs live (default ~/.sparkscope/demo);
                                 a second start reuses them
              --port N           web server port (default 7070)
              --bind ADDR        web server address (default 127.0.0.1)
              --pg-port N        PostgreSQL's port (default 15432, the same on every start); when the default is
                                 taken the demo uses a free port and prints it, a port given here must be free
              --examples WHICH   all (default), quick, or a comma-separated list of example names
              --rerun            run examples again even if the database already has them
              --no-wait          stop after the web server answered once (for scripts and tests)
              --no-server        only run the examples into the database, then stop (no web server)
              --server-jar FILE  the Sparkscope server jar (default: server/target/sparkscope.jar beside this build)
              --list             list the examples and exit
            """;

    /** Thrown for a bad command line: the message is printed with the usage, exit status 2. */
    static final class BadUsage extends Exception {
        BadUsage(String message) {
            super(message, null, false, false);
        }
    }

    static DemoOptions parse(String... args) throws BadUsage {
        Path dataDir = Paths.get(System.getProperty("user.home"), ".sparkscope", "demo");
        int port = 7070;
        String bind = "127.0.0.1";
        String examples = "all";
        boolean rerun = false;
        boolean noWait = false;
        boolean noServer = false;
        Path serverJar = null;
        int pgPort = DemoDatabase.DEFAULT_PORT;
        boolean pgPortGiven = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--data-dir" -> dataDir = Paths.get(value(args, ++i, a));
                case "--port" -> port = portNumber(value(args, ++i, a), a);
                case "--pg-port" -> {
                    pgPort = portNumber(value(args, ++i, a), a);
                    pgPortGiven = true;
                }
                case "--bind" -> bind = value(args, ++i, a);
                case "--examples" -> examples = value(args, ++i, a);
                case "--rerun" -> rerun = true;
                case "--no-wait" -> noWait = true;
                case "--no-server" -> noServer = true;
                case "--server-jar" -> serverJar = Paths.get(value(args, ++i, a));
                default -> throw new BadUsage("unknown option '" + a + "'");
            }
        }
        List<ExampleJob> jobs;
        try {
            jobs = Catalog.select(examples);
        } catch (IllegalArgumentException e) {
            throw new BadUsage("--examples: " + e.getMessage());
        }
        return new DemoOptions(dataDir.toAbsolutePath().normalize(), port, bind, jobs, rerun, noWait, noServer,
                serverJar, pgPort, pgPortGiven);
    }

    private static int portNumber(String v, String option) throws BadUsage {
        int port;
        try {
            port = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new BadUsage(option + ": expected a port number from 1 to 65535, got '" + v + "'");
        }
        return port;
    }

    private static String value(String[] args, int i, String option) throws BadUsage {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new BadUsage(option + " needs a value");
        }
        return args[i];
    }
}
