package io.sparkscope.server.web;

import javax.sql.DataSource;
import java.util.function.LongSupplier;

/**
 * A web server of a test's own on a free port of 127.0.0.1, over a database of its own (no History Server link, no
 * token): for tests whose data must not mix with the shared set of {@link WebFixture}. Closing it stops the server.
 */
record OwnServer(WebServer server, String base) implements AutoCloseable {
    /** With the fixtures' fixed clock, {@link WebFixture#NOW}. */
    static OwnServer over(DataSource ds) {
        return over(ds, () -> WebFixture.NOW);
    }

    static OwnServer over(DataSource ds, LongSupplier clock) {
        WebServer server = new WebServer(ds, new WebServer.Options(null, null), clock);
        return new OwnServer(server, "http://127.0.0.1:" + server.start("127.0.0.1", 0));
    }

    @Override
    public void close() {
        server.stop();
    }
}
