package io.sparkscope.core.recorder;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Spark's {@code Utils.redact} for key/value configuration: a value whose key <em>or</em> value matches
 * {@code spark.redaction.regex} is replaced by {@link #REDACTED}. Applied before anything is stored or printed.
 */
public final class Redactor {
    public static final String REDACTION_REGEX_KEY = "spark.redaction.regex";
    public static final String DEFAULT_REGEX = "(?i)secret|password|token|access[.]?key";
    /** Spark's replacement text, so redacted values look the same as in Spark's UI. */
    public static final String REDACTED = "*********(redacted)";

    private final Pattern pattern;

    public Redactor(Pattern pattern) {
        this.pattern = pattern;
    }

    public static Redactor defaultRedactor() {
        return new Redactor(Pattern.compile(DEFAULT_REGEX));
    }

    /**
     * The redactor the application's own {@code spark.redaction.regex} asks for; an invalid regex falls back to
     * Spark's default (never to no redaction).
     */
    public static Redactor forSparkProperties(Map<String, String> sparkProperties) {
        String regex = sparkProperties.get(REDACTION_REGEX_KEY);
        if (regex == null || regex.isBlank()) {
            return defaultRedactor();
        }
        try {
            return new Redactor(Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            return defaultRedactor();
        }
    }

    public boolean isSecret(String key, String value) {
        return (key != null && pattern.matcher(key).find()) || (value != null && pattern.matcher(value).find());
    }

    public Map<String, String> redact(Map<String, String> props) {
        Map<String, String> out = new LinkedHashMap<>(props.size() * 2);
        props.forEach((k, v) -> out.put(k, isSecret(k, v) ? REDACTED : v));
        return out;
    }
}
