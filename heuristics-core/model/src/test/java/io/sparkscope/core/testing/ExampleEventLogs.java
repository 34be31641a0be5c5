package io.sparkscope.core.testing;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The event logs that the examples module's jobs wrote in local mode and the repository ships
 * ({@code examples/eventlogs}): the project's own real logs, present on every clone.
 */
public final class ExampleEventLogs {
    /** The folder, from {@code sparkscope.repo.root} (the build sets it) or else beside the module's folder. */
    public static final Path DIR = Paths.get(System.getProperty("sparkscope.repo.root", ".."), "examples", "eventlogs");

    private ExampleEventLogs() {
    }
}
