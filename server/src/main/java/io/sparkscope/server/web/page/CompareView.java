package io.sparkscope.server.web.page;

import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.text.Fmt;

/** {@code /compare}: one column per run, the first is the baseline; changed cells carry class "diff" (compare.jte). */
final class CompareView {
    private CompareView() {
    }

    static String form(String typed) {
        Html h = Layout.start("Compare", "Compare");
        JtecompareFormGenerated.render(new PageOutput(h), null, typed);
        return Layout.end(h);
    }

    static String render(Comparison c) {
        Html h = Layout.start("Compare", "Compare");
        JtecompareGenerated.render(new PageOutput(h), null, c);
        return Layout.end(h);
    }

    static String format(Comparison.Unit unit, long v) {
        return switch (unit) {
            case MS -> Fmt.duration(v);
            case BYTES -> Fmt.bytes(v);
            case COUNT -> Fmt.count(v);
        };
    }
}
