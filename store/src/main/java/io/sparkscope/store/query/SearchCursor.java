package io.sparkscope.store.query;

/**
 * A place in the search's order, for keyset paging: the sort key and the app_pk of one row. A page "after" it starts
 * with the row that follows it, a page "before" it ends with the row that precedes it, so a deep page is read from the
 * index where the cursor points instead of counting off every row before it (OFFSET). In a URL it is
 * {@code <sort key>,<app pk>}; the sort key of an application whose idle core-hours were not computed is {@code none}.
 *
 * @param value  the row's sort key: a Long (start, duration, saving) or a Double (idle core-hours); null when not
 *               computed (idle core-hours only), which sorts below every value
 * @param appPk  the row's surrogate key, the tie-breaker
 * @param before true: the page ends before this row (a "previous" link); false: the page starts after it
 */
public record SearchCursor(Number value, long appPk, boolean before) {
    private static final String NONE = "none";

    /** The cursor of one row under this sort. */
    public static SearchCursor of(AppListRow row, AppFilter.Sort sort, boolean before) {
        Number value = switch (sort) {
            case START -> row.startTime();
            case DURATION -> row.durationMs();
            case SAVING -> row.savingMs();
            case WASTE -> row.efficiency() == null ? null : row.efficiency().coreHoursWasted();
        };
        return new SearchCursor(value, row.pk(), before);
    }

    /**
     * Parses the URL form; the error message names what is wrong (the caller says which parameter).
     *
     * @throws IllegalArgumentException when the text is not {@code <sort key>,<app pk>} for this sort
     */
    public static SearchCursor parse(String text, AppFilter.Sort sort, boolean before) {
        int comma = text.lastIndexOf(',');
        if (comma < 0) {
            throw new IllegalArgumentException("'" + text + "' is not <sort key>,<app pk>");
        }
        String v = text.substring(0, comma);
        long pk;
        Number value;
        try {
            pk = Long.parseLong(text.substring(comma + 1));
            if (v.equals(NONE) && sort == AppFilter.Sort.WASTE) {
                value = null;
            } else if (sort == AppFilter.Sort.WASTE) {
                double d = Double.parseDouble(v);
                if (!Double.isFinite(d)) {
                    throw new NumberFormatException();
                }
                value = d;
            } else {
                value = Long.parseLong(v);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not <sort key>,<app pk> for the sort by "
                    + sort.name().toLowerCase(java.util.Locale.ROOT));
        }
        return new SearchCursor(value, pk, before);
    }

    /** The URL form (without the direction, which is the parameter's name). */
    public String text() {
        return (value == null ? NONE : value.toString()) + "," + appPk;
    }
}
