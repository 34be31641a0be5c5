package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.server.web.WebServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code serve}: the web UI and JSON API over the Sparkscope database, until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the web UI and JSON API over the Sparkscope database.")
public final class ServeCommand implements Callable<Integer> {
    @Mixin
    DatabaseOptions db;

    @Option(names = "--port", defaultValue = "7070", paramLabel = "<port>", description = "HTTP port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "<address>",
            description = "Address to listen on (default: ${DEFAULT-VALUE}, this machine only; 0.0.0.0 exposes it).")
    String bind;

    @Option(names = "--history-server-url", paramLabel = "<url>",
            description = "Spark History Server base URL, for 'open in History Server' links.")
    String historyServerUrl;

    @Option(names = "--auth-token", paramLabel = "<token>",
            description = "Require this token on every request (Authorization: Bearer, or ?token= once, kept in a cookie). "
                    + "Default: the SPARKSCOPE_AUTH_TOKEN environment variable, if set.")
    String authToken;

    @Option(names = "--pool-size", defaultValue = "10", paramLabel = "<n>",
            description = "Database connections (default: ${DEFAULT-VALUE}).")
    int poolSize;

    @Option(names = "--max-concurrent-requests", paramLabel = "<n>",
            description = "Requests handled at once; more wait in arrival order (default: 2 per CPU core, here "
                    + "${sys:sparkscope.defaultConcurrency}; 0 = no limit).")
    Integer maxConcurrentRequests;

    static {
        System.setProperty("sparkscope.defaultConcurrency", String.valueOf(WebServer.Options.defaultConcurrency()));
    }

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new Main.UsageError("--port: " + port + " is not a TCP port (0…65535)");
        }
        if (poolSize < 1 || poolSize > 200) {
            throw new Main.UsageError("--pool-size: " + poolSize + " is outside 1…200");
        }
        if (historyServerUrl != null) {
            try {
                URI u = URI.create(historyServerUrl);
                if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
                    throw new IllegalArgumentException("not http(s)");
                }
            } catch (IllegalArgumentException e) {
                throw new Main.UsageError("--history-server-url: expected an http(s) URL, got '" + historyServerUrl + "'");
            }
        }
        int concurrency = maxConcurrentRequests == null ? WebServer.Options.defaultConcurrency() : maxConcurrentRequests;
        if (concurrency < 0 || concurrency > 10_000) {
            throw new Main.UsageError("--max-concurrent-requests: " + concurrency + " is outside 0…10000");
        }
        String token = authToken != null ? authToken : System.getenv("SPARKSCOPE_AUTH_TOKEN");
        if (token != null && token.isBlank()) {
            throw new Main.UsageError("--auth-token: empty token");
        }
        HikariDataSource ds = db.open(poolSize);
        WebServer server = new WebServer(ds, new WebServer.Options(historyServerUrl, token, concurrency), System::currentTimeMillis);
        int bound;
        try {
            bound = server.start(bind, port);
        } catch (WebServer.PortInUse e) {
            ds.close();
            throw new Main.UsageError(e.getMessage());
        }
        System.err.printf("sparkscope serve: http://%s:%d/ (database %s)%s%n", bind.contains(":") ? "[" + bind + "]" : bind,
                bound, db.url, token != null ? ", access token required" : "");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            ds.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }
}
