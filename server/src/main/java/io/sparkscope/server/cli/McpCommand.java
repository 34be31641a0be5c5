package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.modelcontextprotocol.server.McpSyncServer;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.server.mcp.SparkscopeMcp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code mcp}: the MCP server for AI agents on stdin and stdout, as a client (Claude Desktop, an IDE) starts it: it
 * answers until the client closes stdin. Read-only; stdout carries only the protocol, every other line goes to
 * stderr.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = "Serve the MCP server for AI agents over stdio (the client starts this command; "
                + "see docs/mcp.md): read-only tools over the Sparkscope database.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:the client closed stdin",
                "2:usage error, or the database could not be used"})
public final class McpCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions db;

    @Mixin
    CostOptions cost;

    @Override
    public Integer call() throws InterruptedException {
        return serve(System.in, System.out);
    }

    int serve(InputStream in, java.io.OutputStream out) throws InterruptedException {
        var prices = cost.prices();
        HikariDataSource ds = db.open(2);
        CountDownLatch closed = new CountDownLatch(1);
        McpSyncServer server = new SparkscopeMcp(ds, prices, System::currentTimeMillis)
                .stdio(new UntilEnd(in, closed), out);
        System.err.println("sparkscope mcp: serving on stdio (database " + db.url() + ")");
        try {
            closed.await();
        } finally {
            server.close();
            ds.close();
        }
        return 0;
    }

    /** The client's stream, counting down when it ends (the client closed it: time to stop). */
    private static final class UntilEnd extends FilterInputStream {
        private final CountDownLatch closed;

        UntilEnd(InputStream in, CountDownLatch closed) {
            super(in);
            this.closed = closed;
        }

        @Override
        public int read() throws IOException {
            try {
                return ended(super.read());
            } catch (IOException e) {
                closed.countDown();
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return ended(super.read(b, off, len));
            } catch (IOException e) {
                closed.countDown();
                throw e;
            }
        }

        private int ended(int n) {
            if (n < 0) {
                closed.countDown();
            }
            return n;
        }
    }
}
