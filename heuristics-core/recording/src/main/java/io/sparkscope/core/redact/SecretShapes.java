package io.sparkscope.core.redact;

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
 *   <li>Prose: password, passphrase, passcode, pwd, secret or token followed by a space or a colon and a value that
 *       looks generated (6+ characters with a digit, a symbol or an inner capital): {@code password Hunter2},
 *       {@code token: abc123}; "password authentication failed", "unexpected token EOF" stay.</li>
 *   <li>{@code -Dname=value} JVM options whose name contains pass, pwd, secret, token or credential anywhere.</li>
 *   <li>A name ending in "key" ({@code storage.key}, {@code encryptionKey}) only when its value looks generated: 16+
 *       characters of base64/hex with letters and digits ({@code partition.key=customer_id} stays).</li>
 *   <li>{@code Bearer …} / {@code Basic …} credentials: 8+ token characters that are not a plain word (a digit, a
 *       symbol or an inner capital), so "Basic statistics" stays.</li>
 *   <li>Well-known key formats on their own, whatever name they are under ({@link TokenFormats}): AWS access key
 *       ids, Databricks, GitHub, GitLab, Slack, Google, Stripe, OpenAI, SendGrid, Hugging Face, npm, PyPI, Shopify
 *       and DigitalOcean tokens, Slack webhooks, JSON web tokens, PEM and PGP private keys; AWS secret keys (40
 *       generated base64 characters) and a generated string next to an access key id.</li>
 * </ul>
 *
 * <p>Disguises are undone before looking ({@link Decoded}): a name or pair written with percent-encoding
 * ({@code password%3Dx}, {@code %70assword=x}), unicode escapes, zero-width or other invisible characters, or
 * full-width letters is found, and the replacement covers its value as written.
 *
 * <p>Speed: texts can be large (physical plans of 100 KB and more) and many (thousands of task errors), so the text
 * is not run through a dozen regular expressions. One pass looks for the few words and markers a credential needs
 * ("pass", "secret", "key", "://", "Bearer", a known prefix…); only around those does a closer look happen. A
 * text without any costs that one pass (well under a millisecond for 100 KB). The decoded view is made only for a
 * text that has a '%', a backslash or a non-ASCII character, and is scanned besides the text itself.
 */
public final class SecretShapes {
    public static final String REDACTED = "*********(redacted)";

    /** Credential words that may stand anywhere in a name. */
    private static final String LONG_WORDS = "password|passwd|passphrase|passcode|secret|token"
            + "|auth[_.-]?key"
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
            "(?:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z]))(?:[Pp]ass|PASS|[Pp]wd|PWD|[Ss]ig|SIG|[Cc]reds|CREDS)(?![a-z])"
                    // "auth" as the last word of a segment ("spark.myapp.auth", "basic_auth", "myAuth"): not
                    // "author", "authenticate" or "oauth", and not the first word of another name either
                    // ("authType", "auth_to_local", "simple-auth-allowed": settings about logging in)
                    + "|(?:(?<![A-Za-z])|(?<=[a-z])(?=A))(?:[Aa]uth|AUTH)(?![A-Za-z0-9_-])");
    /** A name whose last word is "key": only a generated-looking value makes it a secret. */
    private static final Pattern KEY_LAST = Pattern.compile("(?:(?<![A-Za-z])[Kk]ey|KEY|(?<=[a-z])Key)s?$");
    private static final Pattern GENERATED_VALUE = Pattern.compile(
            "(?=[A-Za-z0-9+/_=-]*[0-9])(?=[A-Za-z0-9+/_=-]*[A-Za-z])[A-Za-z0-9+/_=-]{16,}");
    /** Inside a {@code -D} option a credential word counts anywhere: {@code -Ddbpassword}, {@code -Dmy.dbpass}. */
    private static final Pattern SYSTEM_PROPERTY_WORD = Pattern.compile("(?i)pass|pwd|secret|token|credential");
    /** Words that prose puts right before a secret, longest first so "passwd" is not taken for "pwd". */
    private static final String[] FREE_TEXT_WORDS = {"passphrase", "password", "passcode", "passwd", "secret",
            "token", "pwd"};
    private static final Pattern PASSWORD_FAMILY = Pattern.compile("(?i)(?:.*[^a-z])?(?:password|passwd|passphrase|passcode|pwd)s?");


    private static final String ORACLE = "jdbc:oracle:";

    private SecretShapes() {
    }

    /**
     * Whether a configuration key or a name before '=' names a credential: it holds password, passwd, passphrase,
     * secret, token, an api/access/account/private/secret/storage/… key, ends in credential(s), or has the whole
     * words pass, pwd, sig. "spark.executor.memory", "spark.shuffle.bypassMergeThreshold", "tokenizer", "keytab",
     * "passwordFile" (a path) do not.
     */
    public static boolean isSecretName(String name) {
        if (name == null || name.isEmpty()) {
            return false;
        }
        String plain = plainName(name);
        return LONG_WORD.matcher(plain).find() || SHORT_WORD.matcher(plain).find();
    }

    /**
     * A name as it reads: percent-encoding decoded, zero-width and other invisible characters removed, compatibility
     * forms folded (NFKC), so {@code pass\u200Bword}, {@code ｐａｓｓｗｏｒｄ} and {@code %70assword} are all "password".
     * The same instance when there is nothing to undo.
     */
    public static String plainName(String name) {
        return Decoded.plain(name);
    }

    /** A name ending in "key" whose value looks generated (16+ base64/hex characters with letters and digits). */
    public static boolean isGeneratedKey(String name, String value) {
        return name != null && value != null && KEY_LAST.matcher(plainName(name)).find()
                && GENERATED_VALUE.matcher(value.strip()).matches();
    }

    /** The text with every credential shape replaced; the same instance when there is none. */
    public static String redact(String text) {
        if (text == null || text.length() < 4) {
            return text;
        }
        Ranges found = new Ranges();
        boolean maybeDisguised = scan(text, found);
        // A credential disguised by percent-encoding, escapes or invisible characters is found in the text as it
        // reads, and replaced in the text as written
        Decoded view = maybeDisguised ? Decoded.of(text) : null;
        if (view != null) {
            Ranges inView = new Ranges();
            scan(view.text(), inView);
            found.addFrom(inView, view);
        }
        return found.apply(text);
    }

    /**
     * One pass over the text for the words and markers that can start a credential, and for runs of base64
     * characters exactly as long as an AWS secret key.
     *
     * @return whether the text has a character that may disguise a credential ('%', '\\', non-ASCII), so that
     *         {@link Decoded} should have a look
     */
    private static boolean scan(String text, Ranges found) {
        boolean maybeDisguised = false;
        int n = text.length();
        int skipTo = 0; // the end of the last name looked at: its other words need no second look
        int run = 0; // where the current run of base64 characters started
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (!TokenFormats.isBase64(c)) {
                if (i - run == 40) {
                    TokenFormats.awsSecret(text, run, i, found);
                }
                run = i + 1;
                maybeDisguised |= c == '%' || c == '\\' || c >= 0x80;
            }
            if (i >= n - 2) {
                continue; // every marker below needs three characters
            }
            // a switch on the first letter, then the second one, before any string comparison: most characters of a
            // big plan are decided by two comparisons
            switch (c | 0x20) {
                case 'p' -> {
                    char d = (char) (text.charAt(i + 1) | 0x20);
                    if (i >= skipTo && ((d == 'a' && text.regionMatches(true, i, "pass", 0, 4))
                            || (d == 'w' && text.regionMatches(true, i, "pwd", 0, 3)))) {
                        skipTo = pair(text, i, found);
                    }
                }
                case 's' -> {
                    char d = (char) (text.charAt(i + 1) | 0x20);
                    if (i >= skipTo && ((d == 'e' && text.regionMatches(true, i, "secret", 0, 6))
                            || (d == 'i' && text.regionMatches(true, i, "sig", 0, 3)))) {
                        skipTo = pair(text, i, found);
                    }
                }
                case 't' -> {
                    if (i >= skipTo && (text.charAt(i + 1) | 0x20) == 'o' && text.regionMatches(true, i, "token", 0, 5)) {
                        skipTo = pair(text, i, found);
                    }
                }
                case 'k' -> {
                    if (i >= skipTo && (text.charAt(i + 1) | 0x20) == 'e' && (text.charAt(i + 2) | 0x20) == 'y') {
                        skipTo = pair(text, i, found);
                    }
                }
                case 'c' -> {
                    // credential(s), creds
                    if (i >= skipTo && (text.charAt(i + 1) | 0x20) == 'r' && text.regionMatches(true, i, "cred", 0, 4)) {
                        skipTo = pair(text, i, found);
                    }
                }
                case 'a' -> {
                    if (i >= skipTo && (text.charAt(i + 1) | 0x20) == 'u' && text.regionMatches(true, i, "auth", 0, 4)) {
                        skipTo = pair(text, i, found);
                    }
                }
                case 'b' -> {
                    char d = (char) (text.charAt(i + 1) | 0x20);
                    if (d == 'e' && text.regionMatches(true, i, "bearer", 0, 6)) {
                        authScheme(text, i, i + 6, found);
                    } else if (d == 'a' && text.regionMatches(true, i, "basic", 0, 5)) {
                        authScheme(text, i, i + 5, found);
                    }
                }
                case 'j' -> {
                    if ((text.charAt(i + 1) | 0x20) == 'd' && text.regionMatches(true, i, ORACLE, 0, ORACLE.length())) {
                        oraclePassword(text, i + ORACLE.length(), found);
                    }
                }
                case ':' -> {
                    if (text.charAt(i + 1) == '/' && text.charAt(i + 2) == '/') {
                        urlUserInfo(text, i + 3, found);
                    }
                }
                default -> {
                }
            }
            // a provider's token (AKIA…, ghp_…, dapi…): a table lookup for characters no prefix starts with
            int known = TokenFormats.at(text, i, found);
            if (known != i) {
                i = known; // past a token already hidden
                run = i + 1;
            }
        }
        if (n - run == 40) {
            TokenFormats.awsSecret(text, run, n, found);
        }
        return maybeDisguised;
    }

    private static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
                || c == '-';
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /**
     * The name around a credential word at {@code at}, and if a value is assigned to it, that value.
     *
     * @return the end of the name (so its other words are not looked at again)
     */
    private static int pair(String text, int at, Ranges found) {
        int n = text.length();
        int start = at;
        while (start > 0 && isNameChar(text.charAt(start - 1))) {
            start--;
        }
        int end = at;
        while (end < n && isNameChar(text.charAt(end))) {
            end++;
        }
        while (end > at + 1 && (text.charAt(end - 1) == '-' || text.charAt(end - 1) == '.')) {
            end--; // "password->x", "the password." : the punctuation is not part of the name
        }
        // "-Dname=…" (a JVM option) and "--name=…" (a command-line flag): the name is what follows the dashes
        boolean systemProperty = false;
        int nameStart = start;
        if (end - start > 2 && text.charAt(start) == '-' && text.charAt(start + 1) == 'D') {
            systemProperty = true;
            nameStart = start + 2;
        } else {
            while (nameStart < end && text.charAt(nameStart) == '-') {
                nameStart++;
            }
        }
        if (nameStart >= end || !Character.isLetter(text.charAt(nameStart)) && text.charAt(nameStart) != '_') {
            return end;
        }
        String name = text.substring(nameStart, end);
        int j = end;
        if (j < n && text.charAt(j) == '#') { // a Spark attribute id: password#12
            int d = j + 1;
            while (d < n && Character.isDigit(text.charAt(d))) {
                d++;
            }
            if (d > j + 1) {
                j = d;
            }
        }
        boolean quotedName = false;
        if (start > 0 && j < n) {
            char q = text.charAt(start - 1);
            if ((q == '"' || q == '\'') && text.charAt(j) == q) {
                quotedName = true;
                j++;
            }
        }
        int k = skipBlanks(text, j);
        boolean blankBefore = k > j;
        if (k >= n) {
            return end;
        }
        char c = text.charAt(k);
        String sep;
        if (c == '=') {
            if (k + 1 < n && text.charAt(k + 1) == '=') {
                return end; // a comparison
            }
            sep = "=";
            k++;
        } else if (c == '-' && k + 1 < n && text.charAt(k + 1) == '>') {
            sep = "->";
            k += 2;
        } else if (c == ':') {
            sep = ":";
            k++;
        } else if (blankBefore && (c == '"' || c == '\'')) {
            sep = " ";
        } else if (blankBefore && !quotedName && endsWithFreeTextWord(name)) {
            sep = "word"; // "password Hunter2", "token abc123" in an error message
        } else {
            return end;
        }
        int valueStart = skipBlanks(text, k);
        if (valueStart >= n) {
            return end;
        }
        char first = text.charAt(valueStart);
        boolean quotedValue = first == '"' || first == '\'';
        // after a space or a colon in prose the value must look generated: "password authentication failed",
        // "invalid token at line 3", "Secret key not found", "expecting token: ')'" say nothing secret
        boolean mustLookGenerated = sep.equals("word");
        if (sep.equals(":") && !quotedName) {
            // "Password: x" in a log line, password: "x" in YAML, "token: abc123"; but not a schema
            // ("password:string")
            if (!quotedValue && valueStart == k) {
                return end;
            }
            if (!PASSWORD_FAMILY.matcher(name).matches()) {
                if (!isSecretName(name)) {
                    return end;
                }
                mustLookGenerated = true;
            }
        }
        int[] value = value(text, valueStart);
        if (value == null) {
            return end;
        }
        if (mustLookGenerated && !looksGeneratedWord(text, value[0], value[1])) {
            return end;
        }
        String v = text.substring(value[0], value[1]);
        boolean secret = isSecretName(name)
                || (systemProperty && SYSTEM_PROPERTY_WORD.matcher(name).find())
                || isGeneratedKey(name, v);
        if (secret && !v.startsWith("*********") && !v.isBlank()) {
            found.add(value[0], value[1]);
        }
        return end;
    }

    /**
     * Whether a name's last word is one that prose puts right before a secret ("password Hunter2", "db token
     * abc123"): password, passwd, passphrase, passcode, pwd, secret or token, as a whole word or a camel-case hump.
     */
    private static boolean endsWithFreeTextWord(String name) {
        for (String w : FREE_TEXT_WORDS) {
            int at = name.length() - w.length();
            if (at >= 0 && name.regionMatches(true, at, w, 0, w.length())) {
                char first = name.charAt(at);
                return at == 0 || !Character.isLetter(name.charAt(at - 1))
                        || (Character.isUpperCase(first) && Character.isLowerCase(name.charAt(at - 1)));
            }
        }
        return false;
    }

    /**
     * A value that reads as generated rather than as a word: 6+ characters with a digit, a symbol, or an upper case
     * letter after a lower case one ({@code Hunter2}, {@code abc123}, {@code s3cr3t!}, {@code xYzzyQ}); not
     * "authentication", "EOF", "String" or "FROM".
     */
    private static boolean looksGeneratedWord(String text, int from, int to) {
        if (to - from < 6) {
            return false;
        }
        boolean lower = false;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if ((c >= '0' && c <= '9') || "!@#$%^*+/=?~".indexOf(c) >= 0 || (lower && Character.isUpperCase(c))) {
                return true;
            }
            lower |= Character.isLowerCase(c);
        }
        return false;
    }

    private static int skipBlanks(String text, int i) {
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i;
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
            return null; // "=>", comparisons: not an assignment
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

    /** {@code scheme://user:password@host}: the password; {@code scheme://token@host}: the token. */
    private static void urlUserInfo(String text, int at, Ranges found) {
        int n = text.length();
        int i = at;
        while (i < n && !urlUserEnd(text.charAt(i))) {
            i++;
        }
        if (i < n && text.charAt(i) == ':') {
            int p = i + 1;
            int e = p;
            while (e < n && !urlPasswordEnd(text.charAt(e))) {
                e++;
            }
            if (e < n && e > p && text.charAt(e) == '@' && !portThenPath(text, p, e)
                    && !text.startsWith(REDACTED, p)) {
                found.add(p, e);
            }
            return;
        }
        int e = at;
        boolean digit = false;
        while (e < n && tokenChar(text.charAt(e))) {
            digit |= Character.isDigit(text.charAt(e));
            e++;
        }
        if (e - at >= 20 && digit && e < n && text.charAt(e) == '@') {
            found.add(at, e);
        }
    }

    private static boolean urlUserEnd(char c) {
        return Character.isWhitespace(c) || "/?#@:'\"\\".indexOf(c) >= 0;
    }

    /** The password may hold '/' (generated secrets often do); the user cannot. */
    private static boolean urlPasswordEnd(char c) {
        return Character.isWhitespace(c) || "?#@'\"\\".indexOf(c) >= 0;
    }

    private static boolean tokenChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "_.~%-".indexOf(c) >= 0;
    }

    /** {@code hdfs://nn:8020/user/x@y}: a port followed by a path, not a password. */
    private static boolean portThenPath(String text, int start, int end) {
        int i = start;
        while (i < end && i - start < 6 && Character.isDigit(text.charAt(i))) {
            i++;
        }
        return i > start && i - start <= 5 && i < end && text.charAt(i) == '/';
    }

    /** Oracle's thin driver puts the password after a slash: {@code jdbc:oracle:thin:scott/tiger@//host/db}. */
    private static void oraclePassword(String text, int at, Ranges found) {
        int n = text.length();
        int i = at;
        while (i < n && i - at < 10 && Character.isLetterOrDigit(text.charAt(i))) {
            i++;
        }
        if (i == at || i >= n || text.charAt(i) != ':') {
            return;
        }
        int u = i + 1;
        int e = u;
        while (e < n && !Character.isWhitespace(text.charAt(e)) && "/@:'\"".indexOf(text.charAt(e)) < 0) {
            e++;
        }
        if (e == u || e >= n || text.charAt(e) != '/') {
            return;
        }
        int p = e + 1;
        int pe = p;
        while (pe < n && !Character.isWhitespace(text.charAt(pe)) && "@'\"".indexOf(text.charAt(pe)) < 0) {
            pe++;
        }
        if (pe > p && pe < n && text.charAt(pe) == '@' && !text.startsWith(REDACTED, p)) {
            found.add(p, pe);
        }
    }

    /** {@code Bearer <token>}, {@code Basic <base64>} as a whole word followed by blanks and a token. */
    private static void authScheme(String text, int wordStart, int wordEnd, Ranges found) {
        if (wordStart > 0 && isWordChar(text.charAt(wordStart - 1))) {
            return;
        }
        int t = wordEnd;
        while (t < text.length() && Character.isWhitespace(text.charAt(t))) {
            t++;
        }
        if (t == wordEnd) {
            return;
        }
        int e = t;
        while (e < text.length() && authTokenChar(text.charAt(e))) {
            e++;
        }
        while (e < text.length() && text.charAt(e) == '=') {
            e++;
        }
        if (e - t >= 8 && looksLikeToken(text, t, e)) {
            found.add(t, e);
        }
    }

    private static boolean authTokenChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "._~+/-".indexOf(c) >= 0;
    }

    /** Not a plain word: a digit, a symbol or a capital after the first letter ("dXNlcjpw", not "statistics"). */
    private static boolean looksLikeToken(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (Character.isDigit(c) || "._~+/-=".indexOf(c) >= 0 || (i > from && Character.isUpperCase(c))) {
                return true;
            }
        }
        return false;
    }
}
