package io.sparkscope.server.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs the command line in-process, capturing what it prints. The one copy for every module's tests (the hadoop
 * module's through this module's test jar).
 */
public record CliRun(int exitCode, String out, String err) {
    public static synchronized CliRun of(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** The lines of stderr that are Sparkscope's own: logging (Hadoop's, Spark's) left out. */
    public String ownErrLines() {
        return err.lines().filter(l -> !l.startsWith("[") && !l.contains(" WARN ") && !l.contains(" INFO "))
                .reduce("", (a, b) -> a.isEmpty() ? b : a + "\n" + b);
    }
}
