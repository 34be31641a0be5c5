package io.sparkscope.server.cli;

import io.sparkscope.cli.AnalysisOptions;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.report.CatalogueText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * {@code heuristics}: the catalogue of heuristics that {@code analyze}, {@code import} and the server run, with their
 * thresholds, read from the heuristics themselves (so a user's own heuristics on the classpath are listed too).
 */
@Command(name = "heuristics", mixinStandardHelpOptions = true,
        description = "List the heuristics in the order they run: what each reports and why, and every threshold "
                + "with its value (with --heuristics-config, the values in force and their defaults) and what it does.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:listed",
                "2:usage error, or a --heuristics-config file that cannot be read or has a bad value"})
public final class HeuristicsCommand implements Callable<Integer> {
    @Option(names = "--markdown", description = "Print Markdown (a section and a table per heuristic).")
    boolean markdown;

    @Mixin
    AnalysisOptions.Heuristics heuristics;

    @Override
    public Integer call() {
        Diagnoser d = heuristics.diagnoser();
        System.out.print(markdown ? CatalogueText.markdown(d.heuristics(), d.config())
                : CatalogueText.text(d.heuristics(), d.config()));
        return 0;
    }
}
