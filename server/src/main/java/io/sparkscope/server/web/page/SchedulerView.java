package io.sparkscope.server.web.page;

import io.sparkscope.core.model.Lineage;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.SchedulerLinks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The line saying which scheduler's job and run started an application, on its page and on its job's history page.
 * The markup is scheduler.jte.
 */
public final class SchedulerView {
    private SchedulerView() {
    }

    /**
     * @param historyUrl the job's history, or null on the history page itself
     */
    static void render(Html h, Lineage l, String historyUrl, SchedulerLinks links) {
        JteschedulerGenerated.render(new PageOutput(h), null, l, historyUrl, links.airflowDag(l.dagId()));
    }

    /** The search page filtered by one or two of its scheduler fields ({@code /apps?dag=…&task=…}). */
    public static String search(String name, String value, String name2, String value2) {
        Map<String, String> q = new LinkedHashMap<>();
        q.put(name, value);
        if (name2 != null && value2 != null) {
            q.put(name2, value2);
        }
        return Urls.withQuery("/apps", q);
    }
}
