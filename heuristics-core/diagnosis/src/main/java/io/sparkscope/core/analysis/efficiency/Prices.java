package io.sparkscope.core.analysis.efficiency;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the operator pays: per core-hour and per GB-hour (GiB) of what executors hold, in one currency. Sparkscope
 * ships no prices; without them it shows resources, not money.
 *
 * @param perCoreHour price of one core for one hour, ≥ 0
 * @param perGbHour   price of one GiB of executor memory for one hour, ≥ 0
 * @param currency    a short label shown with amounts ("EUR", "$", "credits"); may be empty
 */
public record Prices(double perCoreHour, double perGbHour, String currency) {
    /** No prices configured: costs are not shown. */
    public static final Prices NONE = new Prices(0, 0, "");
    private static final Pattern CURRENCY = Pattern.compile("[\\p{L}\\p{Sc}][\\p{L}\\p{Sc} .]{0,15}");

    public Prices {
        check(perCoreHour, "price per core-hour");
        check(perGbHour, "price per GB-hour");
        currency = currency == null ? "" : currency.strip();
        if (!currency.isEmpty() && !CURRENCY.matcher(currency).matches()) {
            throw new IllegalArgumentException("currency must be a short label of letters or a currency sign"
                    + " (e.g. EUR, $), got \"" + currency + "\"");
        }
    }

    private static void check(double v, String what) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be a number of at least 0, got " + v);
        }
    }

    /** Whether any price is set: costs can be shown. */
    public boolean configured() {
        return perCoreHour > 0 || perGbHour > 0;
    }

    /**
     * From text settings (command-line options, listener keys); null or blank means unset (0).
     *
     * @param names how each setting is called where it was given, for the error message (core, GB, currency)
     * @throws IllegalArgumentException naming the setting and the value when one is not a price
     */
    public static Prices parse(String perCoreHour, String perGbHour, String currency, String... names) {
        return new Prices(number(perCoreHour, names.length > 0 ? names[0] : "price per core-hour"),
                number(perGbHour, names.length > 1 ? names[1] : "price per GB-hour"),
                currencyOf(currency, names.length > 2 ? names[2] : "currency"));
    }

    private static double number(String text, String name) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        double v;
        try {
            v = Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of at least 0 (e.g. 0.05), got \""
                    + text.strip() + "\"");
        }
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(name + " must be a number of at least 0 (e.g. 0.05), got \""
                    + text.strip() + "\"");
        }
        return v;
    }

    private static String currencyOf(String text, String name) {
        if (text == null || text.isBlank()) {
            return "";
        }
        String c = text.strip();
        if (!CURRENCY.matcher(c).matches()) {
            throw new IllegalArgumentException(name + " must be a short label of letters or a currency sign"
                    + " (e.g. EUR, $), got \"" + c + "\"");
        }
        return c.length() <= 3 ? c.toUpperCase(Locale.ROOT) : c;
    }
}
