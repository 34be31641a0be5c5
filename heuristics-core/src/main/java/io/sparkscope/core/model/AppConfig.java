package io.sparkscope.core.model;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The environment of an application: Spark properties (the user's configuration) apart from JVM, system and Hadoop
 * properties. Secrets are already redacted (see {@link io.sparkscope.core.recorder.Redactor}).
 */
public record AppConfig(
        Map<String, String> sparkProperties,
        Map<String, String> jvmInformation,
        Map<String, String> systemProperties,
        Map<String, String> hadoopProperties) {

    public static final AppConfig EMPTY = new AppConfig(Map.of(), Map.of(), Map.of(), Map.of());

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
