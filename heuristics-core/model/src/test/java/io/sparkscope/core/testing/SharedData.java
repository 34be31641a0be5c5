package io.sparkscope.core.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * Where the third-party test data lives: {@code ../shared} beside the repository (third-party files, never copied in), or the folder
 * named by {@code SPARKSCOPE_SHARED}. Never copied into the project; tests using it skip with a message when absent.
 */
public final class SharedData {
    private SharedData() {
    }

    public static Optional<Path> sharedDir() {
        String env = System.getenv("SPARKSCOPE_SHARED");
        if (env != null && !env.isBlank()) {
            Path p = Paths.get(env);
            return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
        }
        String root = System.getProperty("sparkscope.repo.root");
        Path start = root != null ? Paths.get(root) : Paths.get("").toAbsolutePath();
        for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolveSibling("shared");
            if (Files.isDirectory(candidate.resolve("eventlogs"))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public static Optional<Path> eventLogs() {
        return sharedDir().map(p -> p.resolve("eventlogs")).filter(Files::isDirectory);
    }

    public static Optional<Path> sparkExpectations() {
        return sharedDir().map(p -> p.resolve("spark-expectations")).filter(Files::isDirectory);
    }
}
