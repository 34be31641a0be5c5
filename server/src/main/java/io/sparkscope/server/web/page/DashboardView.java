package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.DashboardQuery;
import io.sparkscope.store.query.WasteQuery;

import java.util.List;

/**
 * {@code /}: what is stored, the health of recent applications, the newest one, the costliest findings and the
 * week's waste. The markup is dashboard.jte.
 */
final class DashboardView {
    private DashboardView() {
    }

    /** A count of the cards at the top: its value as shown and what it counts. */
    record Card(String label, String value) {
    }

    /** A row of the health table: the period, its {@code ?since=} value and the applications' worst severities. */
    record HealthRow(String label, String since, DashboardQuery.Health health) {
    }

    static String render(DashboardQuery.Dashboard d) {
        return render(d, null, Prices.NONE);
    }

    /** @param waste the week's waste, or null to leave the panel out */
    static String render(DashboardQuery.Dashboard d, WasteQuery.Result waste, Prices prices) {
        Html h = new Html(16 * 1024);
        JtedashboardGenerated.render(new PageOutput(h), null, d, waste, prices);
        return h.toString();
    }

    static List<Card> cards(DashboardQuery.Dashboard d) {
        return List.of(new Card("Applications", Fmt.count(d.applications())),
                new Card("Executors", Fmt.count(d.executors())), new Card("Jobs", Fmt.count(d.jobs())),
                new Card("Stages", Fmt.count(d.stages())), new Card("Tasks", Fmt.count(d.tasks())));
    }

    static List<HealthRow> health(DashboardQuery.Dashboard d) {
        return List.of(new HealthRow("last day", "1d", d.lastDay()), new HealthRow("last week", "1w", d.lastWeek()));
    }
}
