package io.sparkscope.hadoop;

import io.sparkscope.core.eventlog.LogLocations;
import io.sparkscope.core.redact.SecretShapes;
import org.apache.hadoop.conf.Configuration;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Hides credentials in anything printed about a Hadoop filesystem: the values of the configuration's secret keys
 * ({@code fs.s3a.secret.key}, {@code fs.azure.account.key.*}, …) wherever they appear in a message, a URI's user
 * information, and the credential shapes the redactor knows.
 */
final class Masker {
    /** Spark's default {@code spark.redaction.regex}, applied to Hadoop keys as Spark's UI applies it. */
    private static final Pattern SPARK_SECRET_KEYS = Pattern.compile("(?i)secret|password|token|access[.]?key");
    /** Shorter values are not searched for: "true" or "1" would mask half of every message. */
    private static final int MIN_SECRET_LENGTH = 4;
    /** Values of "token" keys that are settings, not secrets: durations, counts, flags. */
    private static final Pattern SETTING_VALUE = Pattern.compile("(?i)[0-9.]+[a-z]{0,3}|true|false");

    private final List<String> secrets;

    private Masker(List<String> secrets) {
        this.secrets = secrets;
    }

    static Masker of(Configuration conf) {
        List<String> secrets = new ArrayList<>();
        for (Map.Entry<String, String> e : conf) {
            if (isSecretKey(e.getKey())) {
                String v = e.getValue();
                if (v != null && v.strip().length() >= MIN_SECRET_LENGTH && !SETTING_VALUE.matcher(v.strip()).matches()) {
                    secrets.add(v.strip());
                }
            }
        }
        secrets.sort(Comparator.comparingInt(String::length).reversed());
        return new Masker(List.copyOf(secrets));
    }

    static boolean isSecretKey(String key) {
        return SPARK_SECRET_KEYS.matcher(key).find() || SecretShapes.isSecretName(key);
    }

    String mask(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String s : secrets) {
            if (out.contains(s)) {
                out = out.replace(s, SecretShapes.REDACTED);
            }
        }
        return LogLocations.mask(out);
    }
}
