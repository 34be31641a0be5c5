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
        int[] v = majorMinor(version);
        return v == null || v[0] > major || v[0] == major && v[1] >= minor;
    }

    /** The version's major and minor number, or null when unknown or unreadable. */
    public static int[] majorMinor(String version) {
        if (version == null || version.isBlank()) {
            return null;
        }
        String[] parts = version.trim().split("[.\\-]");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return new int[]{major, minor};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
