package io.sparkscope.server.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code serve}: the web UI and JSON API over the Sparkscope database (being built: issue 5). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the web UI and JSON API over the Sparkscope database.")
public final class ServeCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new Main.UsageError("the web server is not built yet");
    }
}
