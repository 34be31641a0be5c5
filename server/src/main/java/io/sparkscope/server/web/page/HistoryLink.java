package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;

import java.util.Map;

/**
 * The application page's way to its job's history: a button to the runs of its job key, or, for an interactive
 * session (which no other run is compared with), a note saying why there is none and how to give it one.
 */
final class HistoryLink {
    private HistoryLink() {
    }

    static void render(Html h, AppDetail d) {
        AppHeader a = d.header();
        if (a.jobKey() != null) {
            h.raw("<a class=\"btn\" id=\"history-link\" href=\"").a(Urls.historyOfJob(a.jobKey()))
                    .raw("\" title=\"").a(a.jobKey()).raw("\">History of this job</a>");
            return;
        }
        Map<String, Map<String, String>> config = d.config();
        JobKey key = JobKey.of(a.name(), a.sparkUser(), config.getOrDefault("spark", Map.of()),
                config.getOrDefault("system", Map.of()));
        if (key.recurring()) {
            // stored before job keys existed: reanalyze gives it one; until then its name finds the job
            h.raw("<a class=\"btn\" id=\"history-link\" href=\"").a(Urls.history(a.name()))
                    .raw("\">History of this name</a>");
            return;
        }
        h.raw("<span class=\"btn disabled\" id=\"history-none\" title=\"").a("Interactive session (" + key.reason()
                + "): compared with no other run. Set " + JobKey.CONFIG_KEY + " to give it a history.")
                .raw("\">No history: interactive session</span>");
    }
}
