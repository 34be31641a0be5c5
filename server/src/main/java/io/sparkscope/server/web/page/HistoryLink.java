package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;

import java.util.Map;

/**
 * The application page's way to its job's history: a button to the runs of its job key, or, for an interactive
 * session (which no other run is compared with), a note saying why there is none and how to give it one. The markup
 * is historyLink.jte.
 */
final class HistoryLink {
    private HistoryLink() {
    }

    static void render(Html h, AppDetail d) {
        AppHeader a = d.header();
        // an application stored before job keys existed has none: its key is derived again from its name and
        // configuration (reanalyze stores it), to tell a recurring job, found by its name, from an interactive session
        JobKey derived = null;
        if (a.jobKey() == null) {
            Map<String, Map<String, String>> config = d.config();
            derived = JobKey.of(a.name(), a.sparkUser(), config.getOrDefault("spark", Map.of()),
                    config.getOrDefault("system", Map.of()));
        }
        JtehistoryLinkGenerated.render(new PageOutput(h), null, a, derived);
    }
}
