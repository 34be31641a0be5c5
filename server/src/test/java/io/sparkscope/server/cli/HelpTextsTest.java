package io.sparkscope.server.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command's {@code --help} says what its exit statuses mean, in the same place and words, and says the same as
 * the documentation about regressions and about options that matter only with {@code serve --watch}.
 */
class HelpTextsTest {

    private static String help(String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.err());
        // picocli wraps at the terminal width: compare words, not lines
        return run.out().replaceAll("\\s+", " ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"analyze", "import", "watch", "serve", "reanalyze", "prune", "heuristics", "tune", "fetch",
            "mcp"})
    void eachCommandListsItsExitStatuses(String command) {
        String help = help(command, "--help");
        assertTrue(help.contains(" Exit status: 0 "), command + " --help has no exit status list:\n" + help);
        // the status a usage error gives, the same for every command
        assertTrue(help.contains(" 2 usage error") || help.contains(" 2 unknown job, usage error"),
                command + " --help does not say that a usage error exits 2:\n" + help);
    }

    @Test
    void fetchAndServeSayWhatTheirStatusesMean() {
        String fetch = help("fetch", "--help");
        assertTrue(fetch.contains(" 1 some failed, each named on its own line"), fetch);
        assertTrue(fetch.contains(" 2 usage error, or the History Server or the database could not be used"), fetch);
        String serve = help("serve", "--help");
        assertTrue(serve.contains(" 0 stopped (Ctrl-C or SIGTERM)"), serve);
        assertTrue(serve.contains(" 2 usage error, the port is already in use"), serve);
    }

    @Test
    void theRegressionOptionSaysRunsOfTheSameJobAsTheDocsDo() {
        for (String command : new String[]{"import", "fetch", "reanalyze"}) {
            String help = help(command, "--help");
            assertFalse(help.contains("runs of its name"), command + ": runs are grouped by job, not name:\n" + help);
            assertTrue(help.contains("previous 10 complete runs of the same job"), command + ":\n" + help);
        }
    }

    @Test
    void serveSaysWhichOptionsOnlyMatterWithWatch() {
        String serve = help("serve", "--help");
        for (String option : new String[]{"--interval", "--max-open-logs", "--hadoop-conf"}) {
            // past the synopsis, in the option list
            int at = serve.indexOf(option + "=", serve.indexOf("Serve the web UI"));
            assertTrue(at >= 0, option + " missing from serve --help:\n" + serve);
            // up to the next option of the list ("--name=<…"), not a mention of one in this description
            java.util.regex.Matcher next = java.util.regex.Pattern.compile(" --[a-z][a-z-]*=<").matcher(serve);
            String text = serve.substring(at, next.find(at + option.length()) ? next.start() : serve.length());
            assertTrue(text.contains("only with --watch"), option + " does not say it needs --watch: " + text);
        }
    }
}
