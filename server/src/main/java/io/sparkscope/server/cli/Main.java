package io.sparkscope.server.cli;

import io.sparkscope.ingest.cli.FetchCommand;
import io.sparkscope.ingest.cli.ImportCommand;
import io.sparkscope.ingest.cli.WatchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sparkscope} command: {@code java -jar server/target/sparkscope.jar <command> …}. */
@Command(name = "sparkscope", mixinStandardHelpOptions = true, version = "sparkscope 0.1.0",
        description = "Tells Spark developers why an application is slow or wasteful and what to change.",
        subcommands = {AnalyzeCommand.class, ImportCommand.class, WatchCommand.class, ServeCommand.class, ReanalyzeCommand.class,
                PruneCommand.class, HeuristicsCommand.class, TuneCommand.class, ExportCommand.class,
                FetchCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        int exit;
        try {
            exit = run(args);
        } catch (OutOfMemoryError e) {
            // Outside what a command contains itself (a log it reads says so on its own): one line, not a trace.
            System.err.println("sparkscope: the Java heap (" + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB) ran out; give the JVM more heap (java -Xmx…)");
            exit = 3;
        }
        System.exit(exit);
    }

    /** Runs a command line and returns its exit code (tests call this instead of main). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            // Expected problems are UsageErrors with a one-line message; anything else is a bug worth a trace.
            if (ex instanceof io.sparkscope.cli.UsageError) {
                commandLine.getErr().println("sparkscope " + commandLine.getCommandName() + ": " + ex.getMessage());
                return 2;
            }
            throw ex;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** An expected, user-caused error: printed as one line, exit code 2, no stack trace. */
    public static final class UsageError extends io.sparkscope.cli.UsageError {
        private static final long serialVersionUID = 1L;

        public UsageError(String message) {
            super(message);
        }
    }
}
