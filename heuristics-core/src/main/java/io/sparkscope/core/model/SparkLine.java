package io.sparkscope.core.model;

/**
 * Which line of Spark an application ran on, for the few places where Spark's History Server shows a number
 * differently from one line to the next: the application's own version decides, and an unknown or unreadable one
 * reads as the newest behaviour (what a current History Server shows).
 */
public final class SparkLine {
    private SparkLine() {
    }

    /** Whether {@code version} ("3.5.1", "4.0.0-SNAPSHOT", ...) is major.minor or later; true when unknown. */
    public static boolean atLeast(String version, int major, int minor) {
        if (version == null || version.isBlank()) {
            return true;
        }
        String[] parts = version.trim().split("[.\\-]");
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return ma > major || ma == major && mi >= minor;
        } catch (NumberFormatException e) {
            return true;
        }
    }
}
