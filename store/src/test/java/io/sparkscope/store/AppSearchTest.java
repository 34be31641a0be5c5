package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AppSearchTest {
    static DataSource ds;
    static SnapshotReader reader;

    /** Six apps: starts an hour apart, alternating users, names with a wildcard character, various findings. */
    @BeforeAll
    static void data() throws Exception {
        ds = TestDb.migrated();
        reader = new SnapshotReader(ds);
        SnapshotWriter w = new SnapshotWriter();
        String[] names = {"etl daily", "ETL hourly", "ml_train", "mlxtrain", "report 100%", "adhoc"};
        for (int i = 0; i < names.length; i++) {
            AppSnapshot r = Snapshots.rich("app-" + i, null, i != 5);
            long start = Snapshots.T0 + i * 3_600_000L;
            long duration = (i + 1) * 1000L * (i % 2 == 0 ? 10 : 1);
            AppSnapshot s = new AppSnapshot(r.appId(), null, names[i], i % 2 == 0 ? "alice" : "bob", "4.0.4", start,
                    i == 5 ? -1 : start + duration, start + duration, i != 5, r.config(), r.executors(), r.jobs(),
                    r.stages(), r.sqlExecutions(), 0, 0, 100, java.util.Map.of());
            List<StoredFinding> f = switch (i) {
                case 0 -> Snapshots.findings();            // HIGH skew + LOW gc
                case 1 -> List.of(Snapshots.findings().get(1)); // LOW gc
                default -> List.of();
            };
            w.write(ds, s, f);
        }
    }

    private static List<String> ids(AppQuery q) throws Exception {
        return reader.apps(q).stream().map(AppRow::appId).toList();
    }

    @Test
    void newestFirstByDefault() throws Exception {
        assertEquals(List.of("app-5", "app-4", "app-3", "app-2", "app-1", "app-0"), ids(AppQuery.all()));
        assertEquals(6, reader.countApps(AppQuery.all()));
    }

    @Test
    void filtersNarrowTheList() throws Exception {
        assertEquals(List.of("app-1", "app-0"), ids(AppQuery.all().withNameContains("etl")));
        // "_" is a literal underscore, not LIKE's any-character: mlxtrain must not match.
        assertEquals(List.of("app-2"), ids(AppQuery.all().withNameContains("ml_")));
        assertEquals(List.of("app-4"), ids(AppQuery.all().withNameContains("100%")));
        assertEquals(List.of("app-4", "app-2", "app-0"), ids(AppQuery.all().withUser("alice")));
        assertEquals(List.of("app-3", "app-2"), ids(AppQuery.all()
                .withStartedBetween(Snapshots.T0 + 2 * 3_600_000L, Snapshots.T0 + 3 * 3_600_000L)));
        assertEquals(List.of("app-0"), ids(AppQuery.all().withEndedBetween(null, Snapshots.T0 + 3_600_000L)));
        assertEquals(List.of("app-5"), ids(AppQuery.all().withStatus("RUNNING")));
        assertEquals(List.of("app-0"), ids(AppQuery.all().withSeverity("HIGH")));
        assertEquals(List.of("app-1"), ids(AppQuery.all().withSeverity("LOW")));
        assertEquals(4, ids(AppQuery.all().withSeverity("NONE")).size());
        assertEquals(List.of("app-1", "app-0"), ids(AppQuery.all().withHeuristic("gc")));
        assertEquals(List.of("app-0"), ids(AppQuery.all().withHeuristic("gc").withUser("alice")));
        assertEquals(List.of("app-3"), ids(AppQuery.all().withAppId("app-3")));
        assertEquals(1, reader.countApps(AppQuery.all().withHeuristic("skew")));
        assertEquals(List.of(), ids(AppQuery.all().withNameContains("'; DROP TABLE application; --")));
    }

    @Test
    void sortsAndPages() throws Exception {
        // durations: 10 s, 2 s, 30 s, 4 s, 50 s, and app-5 still running (6 s so far)
        assertEquals(List.of("app-4", "app-2", "app-0", "app-5", "app-3", "app-1"),
                ids(AppQuery.all().sortedBy(AppQuery.Sort.DURATION, true)));
        assertEquals(List.of("app-3", "app-2"), ids(AppQuery.all().page(2, 2)));
        assertEquals(List.of("app-1", "app-0"), ids(AppQuery.all().page(2, 4)));
        assertEquals(List.of("app-0", "app-1"), ids(AppQuery.all().sortedBy(AppQuery.Sort.START, false).page(2, 0)));
    }

    @Test
    void rowsCarryTheBannerData() throws Exception {
        AppRow r = reader.apps(AppQuery.all().withAppId("app-0")).get(0);
        assertEquals("etl daily", r.name());
        assertEquals("HIGH", r.worstSeverity());
        assertEquals(2, r.numFindings());
        assertEquals("COMPLETE", r.status());
        assertEquals(null, r.attemptId());
    }

    @Test
    void badQueriesAreRejectedBeforeSql() {
        assertThrows(IllegalArgumentException.class, () -> AppQuery.all().withSeverity("PURPLE"));
        assertThrows(IllegalArgumentException.class, () -> AppQuery.all().withStatus("DONE"));
        assertThrows(IllegalArgumentException.class, () -> AppQuery.all().page(0, 0));
        assertThrows(IllegalArgumentException.class, () -> AppQuery.all().page(10, -1));
    }
}
