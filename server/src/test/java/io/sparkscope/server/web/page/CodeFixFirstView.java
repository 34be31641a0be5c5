package io.sparkscope.server.web.page;

import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.server.web.model.Diagnosis;

/**
 * FixFirstView as it was written in code before fixFirst.jte, kept verbatim as the reference the template's section
 * is compared with (FindingsTemplateTest). The application page's opening section: at most three root causes to fix first, largest estimated saving first,
 * each one sentence with its numbers and a link to the finding below.
 */
final class CodeFixFirstView {
    private CodeFixFirstView() {
    }

    static void render(Html h, Diagnosis d) {
        if (d.total() == 0) {
            return;
        }
        h.raw("<section class=\"fix-first\" id=\"fix-first\"><h2>Fix this first</h2>");
        if (d.fixFirst().isEmpty()) {
            h.raw("<p class=\"muted\" id=\"fix-first-none\">No finding comes with an estimated saving: they are"
                    + " configuration risks whose cost this run's numbers cannot tell. See the findings below.</p>"
                    + "</section>");
            return;
        }
        h.raw("<ol>");
        for (FixFirst.Item item : d.fixFirst().items()) {
            h.raw("<li class=\"fix-item\" data-finding=\"").a(item.findingId()).raw("\">");
            Layout.severity(h, item.severity().name());
            h.raw(" <a href=\"#").a(FindingsView.anchor(item.findingId())).raw("\">").t(item.sentence()).raw("</a></li>");
        }
        h.raw("</ol></section>");
    }
}
