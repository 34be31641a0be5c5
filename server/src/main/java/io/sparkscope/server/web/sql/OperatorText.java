package io.sparkscope.server.web.sql;

import java.util.regex.Pattern;

/**
 * An operator's text as Spark writes it ("HashAggregate(keys=[value#29], functions=[merge_count(1)])", "Exchange
 * hashpartitioning(k#3, 200), ENSURE_REQUIREMENTS, [plan_id=57]") made short to read: without the expression ids,
 * plan and lore ids that tell two columns of one name apart for Spark's optimizer but not for a reader, with class
 * names without their package and object hash, on one line. Spark's own text stays available beside it.
 */
public final class OperatorText {
    /** Characters shown before "…". */
    public static final int MAX_CHARS = 140;

    private static final Pattern EXPRESSION_ID = Pattern.compile("#\\d+L?");
    private static final Pattern PLAN_IDS = Pattern.compile(",?\\s*\\[(?:plan_id|loreId|id)=#?\\d+]");
    private static final Pattern QUALIFIED_CLASS =
            Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.){2,}([A-Z][A-Za-z0-9_$]*)(?:@[0-9a-f]+)?");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private OperatorText() {
    }

    public static String readable(String raw) {
        if (raw == null) {
            return "";
        }
        String s = PLAN_IDS.matcher(raw).replaceAll("");
        s = EXPRESSION_ID.matcher(s).replaceAll("");
        s = QUALIFIED_CLASS.matcher(s).replaceAll("$1");
        s = SPACES.matcher(s).replaceAll(" ").strip();
        if (s.codePointCount(0, s.length()) > MAX_CHARS) {
            s = s.substring(0, s.offsetByCodePoints(0, MAX_CHARS - 1)).stripTrailing() + "…";
        }
        return s;
    }
}
