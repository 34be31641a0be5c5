package io.sparkscope.listener;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SchemaStatus;
import io.sparkscope.store.StoreDataSources;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * Writes snapshots into PostgreSQL through the store's {@link IngestService}, as every other way in does. The pool is
 * created lazily and never fails at creation, so an absent database only shows up as failed writes (which the
 * delivery thread spools and retries); a snapshot the database refuses is a {@link SnapshotRejectedException}.
 * On the first connection it checks the schema: an empty or older one is migrated, a newer one is refused with a
 * clear message (this listener would not understand it).
 */
final class JdbcSnapshotStore implements SnapshotStore {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcSnapshotStore.class);

    private final ListenerConfig cfg;
    private HikariDataSource dataSource;
    private IngestService ingest;
    private boolean schemaChecked;
    private final BiConsumer<AppSnapshot, List<Finding>> onCompleteWritten;
    private final AtomicBoolean warningLogged = new AtomicBoolean();

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
            dataSource = StoreDataSources.pooledForRetryingWriter(cfg.jdbcUrl(), cfg.jdbcUser(), cfg.jdbcPassword(),
                    2, 1_000);
            ingest = IngestService.builder(dataSource)
                    .regressionFactor(cfg.regressionFactor())
                    .onWritten(onCompleteWritten)
                    .warnings(this::warnOnce)
                    .build();
        }
        try {
            writeChecked(snapshot, findings);
        } catch (SQLTransientConnectionException | SnapshotRejectedException e) {
            throw e;
        } catch (Exception e) {
            evictConnections(); // the schema check met a dropped connection: none of them is worth keeping
            throw e;
        }
    }

    private void writeChecked(AppSnapshot snapshot, List<Finding> findings) throws Exception {
        if (!schemaChecked) {
            SchemaStatus status = SchemaManager.check(dataSource);
            switch (status.state()) {
                case EMPTY, OLDER -> {
                    SchemaStatus migrated = SchemaManager.migrate(dataSource);
                    if (!migrated.usable()) {
                        throw new IllegalStateException(migrated.message());
                    }
                    LOG.info("Sparkscope: {}", migrated.message());
                }
                case CURRENT -> { }
                case NEWER, FAILED, MISMATCHED -> throw new IllegalStateException(status.message());
            }
            schemaChecked = true;
        }
        IngestResult result = ingest.ingest(snapshot, findings);
        switch (result.outcome()) {
            case WRITTEN, UNCHANGED -> { }
            // Not written: what this snapshot holds must stay in the driver (an acknowledged entity leaves it), so
            // it is a refusal, never a success.
            case SKIPPED_STALE -> throw new SnapshotRejectedException("the database holds a newer copy of "
                    + result.app() + " (more events, or complete); this snapshot was not written");
            case DATABASE_UNAVAILABLE -> {
                evictConnections();
                throw new SQLTransientConnectionException(result.reason());
            }
            case FAILED -> throw new SnapshotRejectedException(result.reason());
        }
    }

    /**
     * The database went away: the pooled connections are dead, and the pool was told not to evict them itself (it would
     * log a stack trace for each); they go now, and the next write opens new ones.
     */
    private void evictConnections() {
        try {
            if (dataSource != null && dataSource.getHikariPoolMXBean() != null) {
                dataSource.getHikariPoolMXBean().softEvictConnections();
            }
        } catch (RuntimeException e) {
            LOG.debug("Sparkscope: could not evict the pool's connections", e);
        }
    }

    /** Regression lookups and hooks that fail are worth one line, not one per snapshot. */
    private void warnOnce(String warning) {
        if (warningLogged.compareAndSet(false, true)) {
            LOG.warn("Sparkscope: {}", warning);
        } else {
            LOG.debug("Sparkscope: {}", warning);
        }
    }

    @Override
    public synchronized void close() {
        if (dataSource != null) {
            dataSource.close();
        }
    }
}
