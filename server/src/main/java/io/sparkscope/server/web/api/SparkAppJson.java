package io.sparkscope.server.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.ingest.fetch.SparkDates;
import io.sparkscope.store.query.SparkAppsQuery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Applications and their environment in the shape of Spark's REST API v1 ({@code ApplicationInfo},
 * {@code ApplicationAttemptInfo}, {@code ApplicationEnvironmentInfo}): Spark's field names, dates and its way of
 * writing a running attempt (end time {@code 1969-12-31T23:59:59.999GMT}, epoch -1, duration 0).
 */
final class SparkAppJson {
    private SparkAppJson() {
    }

    /** Any epoch ms as Spark writes it, -1 too (Spark's end time of a running attempt). */
    static String date(long epochMs) {
        return SparkDates.format(epochMs);
    }

    /** A stored attempt has no log file, so "last updated" is when its last event was seen. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Attempt(String attemptId, String startTime, String endTime, String lastUpdated, long duration,
                   String sparkUser, boolean completed, String appSparkVersion, long startTimeEpoch,
                   long endTimeEpoch, long lastUpdatedEpoch) {

        static Attempt of(SparkAppsQuery.Attempt a) {
            long end = a.complete() && a.endTime() >= 0 ? a.endTime() : -1;
            long updated = Math.max(0, a.lastEventTime());
            return new Attempt(a.attemptId(), date(a.startTime()), date(end),
                    updated > 0 ? date(updated) : "", end >= 0 ? Math.max(0, end - a.startTime()) : 0,
                    a.sparkUser() == null ? "" : a.sparkUser(), a.complete(),
                    a.sparkVersion() == null ? "" : a.sparkVersion(), a.startTime(), end, updated);
        }
    }

    record App(String id, String name, List<Attempt> attempts) {
        static App of(SparkAppsQuery.App app) {
            List<Attempt> attempts = new ArrayList<>();
            app.attempts().forEach(a -> attempts.add(Attempt.of(a)));
            return new App(app.appId(), app.name() == null ? "" : app.name(), attempts);
        }
    }

    record Runtime(String javaVersion, String javaHome, String scalaVersion) {
    }

    /**
     * What the database keeps of the environment, redacted as stored. Not kept, so empty: metrics properties,
     * classpath entries and resource profiles.
     */
    record Environment(Runtime runtime, List<List<String>> sparkProperties, List<List<String>> hadoopProperties,
                       List<List<String>> systemProperties, List<List<String>> metricsProperties,
                       List<List<String>> classpathEntries, List<Object> resourceProfiles) {

        static Environment of(AppConfig c) {
            Map<String, String> jvm = c.jvmInformation();
            return new Environment(new Runtime(jvm.getOrDefault("Java Version", ""), jvm.getOrDefault("Java Home", ""),
                    jvm.getOrDefault("Scala Version", "")), pairs(c.sparkProperties()), pairs(c.hadoopProperties()),
                    pairs(c.systemProperties()), List.of(), List.of(), List.of());
        }

        private static List<List<String>> pairs(Map<String, String> m) {
            List<List<String>> out = new ArrayList<>();
            m.forEach((k, v) -> out.add(java.util.Arrays.asList(k, v)));
            return out;
        }
    }

    record Version(String spark) {
    }
}
