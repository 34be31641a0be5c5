package io.sparkscope.server.web.page;

import io.sparkscope.server.web.model.Diagnosis;

/**
 * The application page's opening section: at most three root causes to fix first, largest estimated saving first,
 * each one sentence with its numbers and a link to the finding below. The markup is fixFirst.jte.
 */
final class FixFirstView {
    private FixFirstView() {
    }

    static void render(Html h, Diagnosis d) {
        JtefixFirstGenerated.render(new PageOutput(h), null, d);
    }
}
