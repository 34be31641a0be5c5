package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.efficiency.Prices;
import picocli.CommandLine.Option;

/**
 * {@code --cost-core-hour}, {@code --cost-gb-hour} and {@code --currency}: the operator's prices, for the cost of
 * each application {@code analyze} reports and {@code serve}'s pages show. Without them only resources (core-hours,
 * GB-hours) are shown.
 */
final class CostOptions {
    @Option(names = "--cost-core-hour", paramLabel = "<price>",
            description = "Price of one executor core for one hour, e.g. 0.04 (default: none, no cost shown).")
    String perCoreHour;

    @Option(names = "--cost-gb-hour", paramLabel = "<price>",
            description = "Price of one GiB of executor memory for one hour, e.g. 0.005 (default: none).")
    String perGbHour;

    @Option(names = "--currency", paramLabel = "<label>",
            description = "Shown with amounts, e.g. EUR or $ (default: none).")
    String currency;

    private Prices prices;

    /** The prices; a value that is not one is a usage error naming the option. */
    Prices prices() {
        if (prices == null) {
            try {
                prices = Prices.parse(perCoreHour, perGbHour, currency,
                        "--cost-core-hour", "--cost-gb-hour", "--currency");
            } catch (IllegalArgumentException e) {
                throw new Main.UsageError(e.getMessage());
            }
        }
        return prices;
    }
}
