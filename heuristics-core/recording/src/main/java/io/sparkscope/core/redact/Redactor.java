package io.sparkscope.core.redact;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Hides credentials before anything is stored, spooled, logged or printed.
 *
 * <p>Configuration (Spark, JVM, system and Hadoop properties): Spark's own rule first — a value whose key <em>or</em>
 * value matches {@code spark.redaction.regex} becomes {@link #REDACTED} (Spark's {@code Utils.redact}) — then the same
 * with {@code spark.sparkscope.redaction.regex} when set, then a key that names a credential by its shape
 * ({@link SecretShapes#isSecretName}: {@code spark.custom.apikey}, {@code …account.key}, {@code db.credentials},
 * {@code my.db.pass}). Any other value keeps its text with only the credentials inside it replaced
 * ({@link SecretShapes#redact}: a JDBC URL's password, {@code -Dx.pass=} in extraJavaOptions, a value shaped like a
 * provider's token whatever its key). Keys are judged as they read, with invisible characters and encodings undone.
 * The keys that name the application or its work ({@code spark.app.name}, …) are never hidden whole: "secret-app" is
 * a name, not a secret.
 *
 * <p>Free text (job descriptions and groups, SQL, plans, error messages): {@link SecretShapes#redact}, then every
 * match of Spark's {@code spark.redaction.string.regex} and of {@code spark.sparkscope.redaction.regex} is replaced.
 *
 * <p>The three redaction settings themselves are kept as written (they are patterns, and they must survive for a
 * stored snapshot to be redacted again by the same rules). Immutable and thread-safe.
 */
public final class Redactor {
    public static final String REDACTION_REGEX_KEY = "spark.redaction.regex";
    /** Spark's regex for parts of text (explain output); no default in Spark. */
    public static final String STRING_REGEX_KEY = "spark.redaction.string.regex";
    /** Sparkscope's own: more patterns on top of Spark's and the built-in shapes, for configuration and text. */
    public static final String EXTRA_REGEX_KEY = "spark.sparkscope.redaction.regex";
    public static final String DEFAULT_REGEX = "(?i)secret|password|token|access[.]?key";
    /** Spark's replacement text, so redacted values look the same as in Spark's UI. */
    public static final String REDACTED = SecretShapes.REDACTED;

    /**
     * Keys whose value names the application or its work. Spark hides a value that merely contains "secret" or
     * "token" ({@code spark.app.name=secret-app}), which leaves the application without a name; here such a value
     * keeps its text and only a credential inside it ({@code load password=x}) is replaced.
     */
    private static final Set<String> NAME_KEYS = Set.of("spark.app.name", "spark.job.description",
            "spark.jobGroup.id", "spark.job.tags", "spark.scheduler.pool");

    private static final Redactor DEFAULT = new Redactor(Pattern.compile(DEFAULT_REGEX), null, null);
    /** Redactors by their settings: an application's snapshots are redacted every few seconds. */
    private static final Map<Settings, Redactor> CACHE = new ConcurrentHashMap<>();

    private final Pattern pattern;
    private final Pattern stringPattern;
    private final Pattern extraPattern;

    public Redactor(Pattern pattern) {
        this(pattern, null, null);
    }

    private Redactor(Pattern pattern, Pattern stringPattern, Pattern extraPattern) {
        this.pattern = Objects.requireNonNull(pattern);
        this.stringPattern = stringPattern;
        this.extraPattern = extraPattern;
    }

    public static Redactor defaultRedactor() {
        return DEFAULT;
    }

    /**
     * The redactor the application's own settings ask for. An invalid {@code spark.redaction.regex} falls back to
     * Spark's default (never to no redaction); an invalid text or Sparkscope regex is left out (the shapes still
     * apply; the listener warns about it, see {@link #invalidSetting}).
     */
    public static Redactor forSparkProperties(Map<String, String> sparkProperties) {
        Settings s = new Settings(blankToNull(sparkProperties.get(REDACTION_REGEX_KEY)),
                blankToNull(sparkProperties.get(STRING_REGEX_KEY)), blankToNull(sparkProperties.get(EXTRA_REGEX_KEY)));
        if (s.equals(Settings.NONE)) {
            return DEFAULT;
        }
        Redactor cached = CACHE.get(s);
        if (cached != null) {
            return cached;
        }
        Pattern main = s.regex == null ? DEFAULT.pattern : compileOr(s.regex, DEFAULT.pattern);
        Redactor r = new Redactor(main, compileOr(s.stringRegex, null), compileOr(s.extraRegex, null));
        if (CACHE.size() > 256) {
            CACHE.clear(); // many distinct settings in one process (a long import): start over rather than grow
        }
        CACHE.put(s, r);
        return r;
    }

    /** The setting among the redaction keys whose value is not a valid regex, with the reason; null when none. */
    public static String invalidSetting(Map<String, String> sparkProperties) {
        for (String key : new String[]{REDACTION_REGEX_KEY, STRING_REGEX_KEY, EXTRA_REGEX_KEY}) {
            String v = blankToNull(sparkProperties.get(key));
            if (v != null) {
                try {
                    Pattern.compile(v);
                } catch (PatternSyntaxException e) {
                    return key + " is not a valid regular expression (" + e.getDescription() + ")";
                }
            }
        }
        return null;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static Pattern compileOr(String regex, Pattern fallback) {
        if (regex == null) {
            return fallback;
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            return fallback;
        }
    }

    /**
     * Whether a configuration entry's whole value is hidden. The key is judged as it reads
     * ({@link SecretShapes#plainName}: {@code spark.my.pass\u200Bword} is a password key).
     */
    public boolean isSecret(String key, String value) {
        String name = key == null ? null : SecretShapes.plainName(key);
        if (name != null && (isRedactionSetting(name) || NAME_KEYS.contains(name))) {
            return false;
        }
        if (matches(pattern, name) || matches(pattern, value) || matches(extraPattern, name)
                || matches(extraPattern, value)) {
            return true;
        }
        if (value != null && (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"))) {
            return false; // a switch such as hadoop.security.token.service.use_ip is not a credential
        }
        return SecretShapes.isSecretName(name) || SecretShapes.isGeneratedKey(name, value);
    }

    private static boolean isRedactionSetting(String key) {
        return key.equals(REDACTION_REGEX_KEY) || key.equals(STRING_REGEX_KEY) || key.equals(EXTRA_REGEX_KEY);
    }

    private static boolean matches(Pattern p, String s) {
        return p != null && s != null && p.matcher(s).find();
    }

    /** One configuration value: {@link #REDACTED}, or its text with the credentials inside it replaced. */
    public String redactValue(String key, String value) {
        if (isSecret(key, value)) {
            return REDACTED;
        }
        if (key != null && isRedactionSetting(key)) {
            return value;
        }
        return redactText(value);
    }

    public Map<String, String> redact(Map<String, String> props) {
        Map<String, String> out = new LinkedHashMap<>(props.size() * 2);
        props.forEach((k, v) -> out.put(k, redactValue(k, v)));
        return out;
    }

    /** Free text with every credential in it replaced; the same instance when there is none. */
    public String redactText(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = SecretShapes.redact(text);
        out = replaceMatches(stringPattern, out);
        out = replaceMatches(extraPattern, out);
        return out;
    }

    private static String replaceMatches(Pattern p, String text) {
        if (p == null) {
            return text;
        }
        Matcher m = p.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        while (m.find()) {
            if (m.end() == m.start() || text.startsWith(REDACTED, m.start())) {
                continue; // an empty match would insert the marker between every character
            }
            if (sb == null) {
                sb = new StringBuilder(text.length() + 32);
            }
            sb.append(text, last, m.start()).append(REDACTED);
            last = m.end();
        }
        return sb == null ? text : sb.append(text, last, text.length()).toString();
    }

    private record Settings(String regex, String stringRegex, String extraRegex) {
        static final Settings NONE = new Settings(null, null, null);
    }
}
