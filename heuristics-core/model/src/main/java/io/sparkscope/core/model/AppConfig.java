package io.sparkscope.core.model;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The environment of an application: Spark properties (the user's configuration) apart from JVM, system and Hadoop
 * properties. Secrets are already redacted (see {@code redact.Redactor}).
 */
public record AppConfig(
        Map<String, String> sparkProperties,
        Map<String, String> jvmInformation,
        Map<String, String> systemProperties,
        Map<String, String> hadoopProperties) {

    public static final AppConfig EMPTY = new AppConfig(Map.of(), Map.of(), Map.of(), Map.of());

    /**
     * The Spark properties a run's job key is derived from (the analysis package's JobKey reads no others), with the
     * scheduler's job and run ({@link Lineage}), which the store keeps beside the key.
     */
    public static final java.util.List<String> JOB_IDENTITY_SPARK_KEYS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of("spark.sparkscope.jobKey", "spark.master", "spark.repl.class.uri",
                    "spark.repl.class.outputDir"),
            Lineage.PROPERTIES.stream()).toList();
    /** The Java system property a run's job key is derived from (the driver's command line). */
    public static final String JOB_IDENTITY_SYSTEM_KEY = "sun.java.command";

    /**
     * Only the settings a run's job key is derived from. A live listener's snapshot of what changed leaves an
     * unchanged configuration out; it carries these so that every write of one run gets the same job key.
     */
    public AppConfig jobIdentity() {
        Map<String, String> spark = new java.util.LinkedHashMap<>();
        for (String k : JOB_IDENTITY_SPARK_KEYS) {
            String v = sparkProperties.get(k);
            if (v != null) {
                spark.put(k, v);
            }
        }
        String command = systemProperties.get(JOB_IDENTITY_SYSTEM_KEY);
        return new AppConfig(spark, Map.of(), command == null ? Map.of() : Map.of(JOB_IDENTITY_SYSTEM_KEY, command),
                Map.of());
    }

    public AppConfig {
        // Sorted copies: stable output for reports, JSON and tests.
        sparkProperties = java.util.Collections.unmodifiableMap(new TreeMap<>(sparkProperties));
        jvmInformation = java.util.Collections.unmodifiableMap(new TreeMap<>(jvmInformation));
        systemProperties = java.util.Collections.unmodifiableMap(new TreeMap<>(systemProperties));
        hadoopProperties = java.util.Collections.unmodifiableMap(new TreeMap<>(hadoopProperties));
    }

    public Optional<String> get(String sparkKey) {
        return Optional.ofNullable(sparkProperties.get(sparkKey));
    }

    public String getOrDefault(String sparkKey, String fallback) {
        return sparkProperties.getOrDefault(sparkKey, fallback);
    }
}
