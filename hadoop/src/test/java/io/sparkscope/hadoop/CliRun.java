package io.sparkscope.hadoop;

import io.sparkscope.server.cli.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the sparkscope command line in-process with sparkscope-hadoop on the classpath, capturing what it prints. */
record CliRun(int exitCode, String out, String err) {
    static synchronized CliRun of(String... args) {
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

    /** The lines that are Sparkscope's own (Hadoop's logging left out). */
    String ownErrLines() {
        return err.lines().filter(l -> !l.startsWith("[") && !l.contains(" WARN ") && !l.contains(" INFO "))
                .reduce("", (a, b) -> a.isEmpty() ? b : a + "\n" + b);
    }
}
