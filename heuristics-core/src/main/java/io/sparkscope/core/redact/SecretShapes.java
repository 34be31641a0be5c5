package io.sparkscope.core.redact;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a credential looks like inside free text (job descriptions, SQL, plans, error messages) and in configuration
 * names, independent of any setting. Only the secret part of a text is replaced, so the rest stays readable:
 * {@code jdbc:postgresql://app:*********(redacted)@db/x}, {@code password=*********(redacted)}.
 *
 * <p>The shapes, and the near misses they leave alone (false positives cost readability, so they are kept rare):
 * <ul>
 *   <li>URL user-info {@code scheme://user:password@host}: the password; a bare user-info that looks like a token
 *       (20+ characters with a digit, as {@code https://ghp_…@github.com}) whole. {@code host:8080/x} and
 *       {@code git@host} are not user-info with a password.</li>
 *   <li>{@code name=value}, {@code name = 'value'}, {@code name -> value} (Scala maps), {@code "name": "value"}
 *       (JSON), {@code name 'value'} (SQL {@code OPTIONS}), {@code Password: value} — where the name holds a
 *       credential word (see {@link #isSecretName}): the value, up to the next delimiter or closing quote. A word
 *       alone is not a pair: "invalid token at line 3", {@code SELECT password FROM users} and the schema text
 *       {@code struct<password:string>} stay.</li>
 *   <li>{@code -Dname=value} JVM options whose name contains pass, pwd, secret, token or credential anywhere.</li>
 *   <li>A name ending in "key" ({@code storage.key}, {@code encryptionKey}) only when its value looks generated: 16+
 *       characters of base64/hex with letters and digits ({@code partition.key=customer_id} stays).</li>
 *   <li>{@code Bearer …} / {@code Basic …} credentials: 8+ token characters that are not a plain word (a digit, a
 *       symbol or an inner capital), so "Basic statistics" stays.</li>
 *   <li>Well-known key formats on their own: AWS access key ids ({@code AKIA…}), GitHub and Slack tokens, Google API
 *       keys, JSON web tokens, PEM private keys.</li>
 * </ul>
 */
public final class SecretShapes {
    public static final String REDACTED = "*********(redacted)";

    /** Credential words that may stand anywhere in a name. */
    private static final String LONG_WORDS = "password|passwd|passphrase|secret|token"
            + "|api[_.-]?key|access[_.-]?key|account[_.-]?key|private[_.-]?key|secret[_.-]?key|session[_.-]?key"
            + "|storage[_.-]?key|shared[_.-]?key|signing[_.-]?key|master[_.-]?key|encryption[_.-]?key";
    /**
     * A long word counts unless a letter follows: "tokenizer", "secretary" and plurals ("tokens=5000") are not
     * credentials, and a capital that follows starts another word ("passwordFile" is the name of a file).
     */
    private static final Pattern LONG_WORD = Pattern.compile("(?i)(?:" + LONG_WORDS + ")(?![A-Za-z])"
            // "credentials" only as the last word: "db.credentials", not "hadoop.security.credential.provider.path"
            + "|(?i)credentials?$");
    /**
     * Short words, only as a whole word: after a non-letter or a camelCase hump, before a non-lower-case letter
     * ("db.pass", "dbPass", "DB_PWD", "sig" of a signed URL) — never inside "bypass", "compass" or "signal".
     */
    private static final Pattern SHORT_WORD = Pattern.compile(
            "(?:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z]))(?:[Pp]ass|PASS|[Pp]wd|PWD|[Ss]ig|SIG)(?![a-z])");
    /** A name whose last word is "key": only a generated-looking value makes it a secret. */
    private static final Pattern KEY_LAST = Pattern.compile("(?:(?<![A-Za-z])[Kk]ey|KEY|(?<=[a-z])Key)s?$");
    private static final Pattern GENERATED_VALUE = Pattern.compile(
            "(?=[A-Za-z0-9+/_=-]*[0-9])(?=[A-Za-z0-9+/_=-]*[A-Za-z])[A-Za-z0-9+/_=-]{16,}");
    /** Inside a {@code -D} option a credential word counts anywhere: {@code -Ddbpassword}, {@code -Dmy.dbpass}. */
    private static final Pattern SYSTEM_PROPERTY_WORD = Pattern.compile("(?i)pass|pwd|secret|token|credential");
    private static final Pattern PASSWORD_FAMILY = Pattern.compile("(?i)(?:.*[^a-z])?(?:password|passwd|passphrase|pwd)s?");

    /** Any credential word somewhere: a cheap test before looking for pairs. */
    private static final Pattern ANY_WORD = Pattern.compile("(?i)pass|pwd|secret|credential|token|key|sig");

    /**
     * A name, maybe quoted (group 1 the quote, group 2 the name, a Spark attribute id {@code #12} allowed), then the
     * separator: '=' (not '=='), '->', ':' or, before a quoted value, blanks.
     */
    private static final Pattern PAIR = Pattern.compile(
            "(?<![\\w.])([\"']?)([A-Za-z_][\\w.-]*)(?:#\\d+)?\\1(?:\\s*(=(?!=)|->|:)|\\s+(?=[\"']))\\s*");

    /**
     * The password may hold '/' (generated secrets often do); the user cannot. A port followed by a path
     * ({@code hdfs://nn:8020/user/x@y}) is not a password.
     */
    private static final Pattern URL_PASSWORD = Pattern.compile(
            "(?<=://)([^\\s/?#@:'\"\\\\]*):(?!\\d{1,5}/)([^\\s?#@'\"\\\\]+)@");
    private static final Pattern URL_TOKEN_USER = Pattern.compile(
            "(?<=://)(?=[^\\s/?#@:]*[0-9])([A-Za-z0-9_.~%-]{20,})@");
    /** Oracle's thin driver puts the password after a slash: {@code jdbc:oracle:thin:scott/tiger@//host/db}. */
    private static final Pattern ORACLE_PASSWORD = Pattern.compile(
            "(?i)(?<=jdbc:oracle:[a-z0-9]{1,10}:)([^\\s/@:'\"]+)/([^\\s@'\"]+)@");
    private static final Pattern AUTH_SCHEME = Pattern.compile(
            "(?i)\\b(?:bearer|basic)\\s+([A-Za-z0-9._~+/-]{8,}=*)");
    private static final List<Pattern> KNOWN_FORMATS = List.of(
            // AWS access key ids (long-term AKIA, temporary ASIA, and the other IAM prefixes)
            Pattern.compile("\\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\\b"),
            // GitHub tokens
            Pattern.compile("\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\\b"),
            // Slack tokens
            Pattern.compile("\\bxox[abposr]-[A-Za-z0-9-]{10,}"),
            // Google API keys
            Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}"),
            // JSON web tokens: header.payload.signature, the first two base64url JSON objects
            Pattern.compile("\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
            // PEM private keys, whole block
            Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"));

    private SecretShapes() {
    }

    /**
     * Whether a configuration key or a name before '=' names a credential: it holds password, passwd, passphrase,
     * secret, token(s), an api/access/account/private/secret/storage/… key, ends in credential(s), or has the whole
     * words pass, pwd, sig. "spark.executor.memory", "spark.shuffle.bypassMergeThreshold", "tokenizer", "keytab",
     * "passwordFile" (a path) do not.
     */
    public static boolean isSecretName(String name) {
        if (name == null || name.isEmpty()) {
            return false;
        }
        return LONG_WORD.matcher(name).find() || SHORT_WORD.matcher(name).find();
    }

    /** A name ending in "key" whose value looks generated (16+ base64/hex characters with letters and digits). */
    public static boolean isGeneratedKey(String name, String value) {
        return name != null && value != null && KEY_LAST.matcher(name).find()
                && GENERATED_VALUE.matcher(value.strip()).matches();
    }

    /** The text with every credential shape replaced; the same instance when there is none. */
    public static String redact(String text) {
        if (text == null || text.length() < 4) {
            return text;
        }
        String out = text;
        if (out.indexOf("://") >= 0) {
            out = replaceGroup(URL_PASSWORD, out, 2);
            out = replaceGroup(URL_TOKEN_USER, out, 1);
        }
        if (containsIgnoreCase(out, "jdbc:oracle:")) {
            out = replaceGroup(ORACLE_PASSWORD, out, 2);
        }
        if (ANY_WORD.matcher(out).find()) {
            out = redactPairs(out);
        }
        out = redactAuthSchemes(out);
        for (Pattern p : KNOWN_FORMATS) {
            out = replaceGroup(p, out, 0);
        }
        return out.equals(text) ? text : out;
    }

    private static boolean containsIgnoreCase(String text, String lower) {
        return text.toLowerCase(java.util.Locale.ROOT).contains(lower);
    }

    /** Replaces group {@code g} of every match (a group already redacted is left as it is). */
    static String replaceGroup(Pattern p, String text, int g) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 32);
        int last = 0;
        do {
            int s = m.start(g);
            int e = m.end(g);
            if (s < 0 || e <= s || text.startsWith(REDACTED, s)) {
                continue;
            }
            sb.append(text, last, s).append(REDACTED);
            last = e;
        } while (m.find());
        if (last == 0) {
            return text;
        }
        return sb.append(text, last, text.length()).toString();
    }

    private static String redactPairs(String text) {
        Matcher m = PAIR.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        int from = 0;
        while (from < text.length() && m.find(from)) {
            int valueStart = m.end();
            from = Math.max(valueStart, m.start() + 1);
            String quote = m.group(1);
            String name = m.group(2);
            String sep = m.group(3);
            if (valueStart >= text.length()) {
                break;
            }
            boolean systemProperty = m.start(2) >= 1 && text.charAt(m.start(2) - 1) == '-' && name.length() > 1
                    && name.charAt(0) == 'D';
            char first = text.charAt(valueStart);
            boolean quotedValue = first == '"' || first == '\'';
            if (":".equals(sep) && quote.isEmpty()) {
                // "Password: x" in a log line, password: "x" in YAML; but not a schema ("password:string") nor a
                // "name: message" prefix ("expecting token: ')'")
                if (!PASSWORD_FAMILY.matcher(name).matches() || (!quotedValue && valueStart == m.end(3))) {
                    continue;
                }
            }
            int[] value = value(text, valueStart);
            if (value == null) {
                continue;
            }
            String v = text.substring(value[0], value[1]);
            boolean secret = isSecretName(name)
                    || (systemProperty && SYSTEM_PROPERTY_WORD.matcher(name).find())
                    || isGeneratedKey(name, v);
            if (!secret || v.startsWith("*********") || v.isBlank()) {
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(text.length() + 32);
            }
            sb.append(text, last, value[0]).append(REDACTED);
            last = value[1];
            from = Math.max(from, value[1]);
        }
        if (sb == null) {
            return text;
        }
        return sb.append(text, last, text.length()).toString();
    }

    /** [start, end) of the value at {@code at}: inside its quotes, or up to a delimiter; null when empty. */
    private static int[] value(String text, int at) {
        char c = text.charAt(at);
        if (c == '"' || c == '\'') {
            int i = at + 1;
            while (i < text.length() && text.charAt(i) != c) {
                if (text.charAt(i) == '\\') {
                    i++;
                }
                i++;
            }
            int end = Math.min(i, text.length());
            return end > at + 1 ? new int[]{at + 1, end} : null;
        }
        if (c == '=' || c == '>' || c == '<' || c == '!') {
            return null; // "==", "=>", comparisons: not an assignment
        }
        if (text.startsWith(REDACTED, at)) {
            return null;
        }
        int i = at;
        while (i < text.length() && !delimiter(text.charAt(i))) {
            i++;
        }
        return i > at ? new int[]{at, i} : null;
    }

    private static boolean delimiter(char c) {
        return Character.isWhitespace(c) || c == '&' || c == ';' || c == ',' || c == '"' || c == '\'' || c == ')'
                || c == '(' || c == ']' || c == '[' || c == '}' || c == '{' || c == '<' || c == '>';
    }

    private static String redactAuthSchemes(String text) {
        Matcher m = AUTH_SCHEME.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 32);
        int last = 0;
        do {
            String token = m.group(1);
            if (!looksLikeToken(token) || text.startsWith(REDACTED, m.start(1))) {
                continue;
            }
            sb.append(text, last, m.start(1)).append(REDACTED);
            last = m.end(1);
        } while (m.find());
        if (last == 0) {
            return text;
        }
        return sb.append(text, last, text.length()).toString();
    }

    /** Not a plain word: a digit, a symbol or a capital after the first letter ("dXNlcjpw", not "statistics"). */
    private static boolean looksLikeToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isDigit(c) || "._~+/-=".indexOf(c) >= 0 || (i > 0 && Character.isUpperCase(c))) {
                return true;
            }
        }
        return false;
    }
}
