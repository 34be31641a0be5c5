package io.sparkscope.listener;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.PreviousRuns;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SchemaStatus;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.StoreDataSources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * Writes snapshots into PostgreSQL through the store module. The pool is created lazily and never fails at
 * creation, so an absent database only shows up as failed writes (which the delivery thread spools and retries).
 * On the first connection it checks the schema: an empty or older one is migrated, a newer one is refused with a
 * clear message (this listener would not understand it).
 */
final class JdbcSnapshotStore implements SnapshotStore {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcSnapshotStore.class);

    private final ListenerConfig cfg;
    private final SnapshotWriter writer = new SnapshotWriter();
    private HikariDataSource dataSource;
    private boolean schemaChecked;
    private final BiConsumer<AppSnapshot, List<Finding>> onCompleteWritten;
    private final AtomicBoolean regressionFailureLogged = new AtomicBoolean();

    JdbcSnapshotStore(ListenerConfig cfg) {
        this(cfg, (s, f) -> { });
    }

    /**
     * @param onCompleteWritten called (on the writer thread; it must not block) after a COMPLETE snapshot was written,
     *                          with the findings written with it (Regression included): the webhook
     */
    JdbcSnapshotStore(ListenerConfig cfg, BiConsumer<AppSnapshot, List<Finding>> onCompleteWritten) {
        this.cfg = cfg;
        this.onCompleteWritten = onCompleteWritten;
    }

    @Override
    public synchronized void write(AppSnapshot snapshot, List<Finding> findings) throws Exception {
        if (dataSource == null) {
            dataSource = StoreDataSources.pooled(cfg.jdbcUrl(), cfg.jdbcUser(), cfg.jdbcPassword(), 2, 1_000);
        }
        if (!schemaChecked) {
            SchemaStatus status = SchemaManager.check(dataSource);
            switch (status.state()) {
                case EMPTY, OLDER -> {
                    SchemaStatus migrated = SchemaManager.migrate(dataSource);
                    LOG.info("Sparkscope: {}", migrated.message());
                }
                case CURRENT -> { }
                case NEWER -> throw new IllegalStateException(status.message());
                case FAILED -> throw new IllegalStateException(status.message());
            }
            schemaChecked = true;
        }
        List<Finding> all = findings;
        if (snapshot.complete()) {
            try {
                all = PreviousRuns.withRegression(dataSource, snapshot, findings, cfg.regressionFactor(),
                        PreviousRuns.DEFAULT_LIMIT);
            } catch (Exception e) {
                if (regressionFailureLogged.compareAndSet(false, true)) {
                    LOG.warn("Sparkscope: cannot compare with previous runs ({}); no Regression finding",
                            SnapshotDelivery.oneLine(e));
                }
            }
        }
        writer.write(dataSource, snapshot, all);
        if (snapshot.complete()) {
            try {
                onCompleteWritten.accept(snapshot, all);
            } catch (RuntimeException e) {
                LOG.debug("Sparkscope: after-write hook failed", e);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (dataSource != null) {
            dataSource.close();
        }
    }
}
