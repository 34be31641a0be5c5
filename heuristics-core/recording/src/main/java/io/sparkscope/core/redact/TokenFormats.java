package io.sparkscope.core.redact;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials recognised by their shape alone, whatever name they are stored under: tokens with a provider's prefix,
 * AWS secret access keys, and a random-looking string beside an AWS access key id.
 *
 * <p>A prefix is looked for only at the start of a word, so {@code xghp_…} or {@code mydapi…} are not tokens. Each
 * format asks for the length and alphabet its provider documents, so a word that merely starts the same way
 * ("skew", "dapper", "hf_table") stays.
 */
final class TokenFormats {
    /**
     * A literal prefix to find fast (specific enough that ordinary words rarely start with it: the shape's matcher is
     * made only after it), then the whole shape from there; {@code awsId} for the AWS key id prefixes.
     */
    private record Known(String prefix, Pattern shape, boolean awsId) {
        Known(String prefix, Pattern shape) {
            this(prefix, shape, false);
        }
    }

    /** The known formats by the first character of their prefix (ASCII), null where none starts. */
    private static final Known[][] BY_FIRST = byFirst(known());

    /** The length of an AWS secret access key. */
    private static final int AWS_SECRET_LENGTH = 40;
    private static final boolean[] BASE64 = new boolean[128];

    static {
        for (char c = 'A'; c <= 'Z'; c++) {
            BASE64[c] = true;
            BASE64[c | 0x20] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            BASE64[c] = true;
        }
        BASE64['+'] = true;
        BASE64['/'] = true;
    }

    private TokenFormats() {
    }

    private static Known[] known() {
        Pattern aws = Pattern.compile("(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\\b");
        Pattern github = Pattern.compile("gh[pousr]_[A-Za-z0-9]{30,}\\b");
        Pattern stripe = Pattern.compile("(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}");
        Pattern shopify = Pattern.compile("shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\\b");
        Pattern digitalOcean = Pattern.compile("do[opr]_v1_[a-f0-9]{64}\\b");
        Pattern pem = Pattern.compile("-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?"
                + "(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\\z)");
        return new Known[]{
                // AWS access key ids (long-term AKIA, temporary ASIA, and the other IAM prefixes)
                new Known("AKIA", aws, true), new Known("ASIA", aws, true), new Known("AGPA", aws, true),
                new Known("AIDA", aws, true), new Known("AROA", aws, true), new Known("ANPA", aws, true),
                new Known("ANVA", aws, true), new Known("APKA", aws, true),
                // GitHub tokens
                new Known("ghp_", github), new Known("gho_", github), new Known("ghu_", github),
                new Known("ghs_", github), new Known("ghr_", github),
                new Known("github_pat_", Pattern.compile("github_pat_[A-Za-z0-9_]{30,}\\b")),
                // GitLab personal access tokens
                new Known("glpat-", Pattern.compile("glpat-[A-Za-z0-9_-]{20,}")),
                // Slack bot, user, app-level and other tokens
                new Known("xox", Pattern.compile("xox[abposr]-[A-Za-z0-9-]{10,}")),
                new Known("xapp-", Pattern.compile("xapp-[0-9]+-[A-Za-z0-9-]{10,}")),
                // Slack incoming webhooks: the path is the credential
                new Known("hooks.slack.com/", Pattern.compile(
                        "hooks\\.slack\\.com/(?:services|workflows)/([A-Za-z0-9/_-]{20,})")),
                // Google API keys and OAuth access tokens
                new Known("AIza", Pattern.compile("AIza[0-9A-Za-z_-]{35}")),
                new Known("ya29.", Pattern.compile("ya29\\.[0-9A-Za-z_-]{20,}")),
                // Databricks personal access tokens
                new Known("dapi", Pattern.compile("dapi[0-9a-fA-F]{32}(?:-[0-9]+)?\\b")),
                // Stripe secret and restricted keys, webhook signing secrets
                new Known("sk_", stripe), new Known("rk_", stripe),
                new Known("whsec_", Pattern.compile("whsec_[A-Za-z0-9+/=]{20,}")),
                // OpenAI and Anthropic API keys
                new Known("sk-", Pattern.compile("sk-(?:[a-z]+-)?(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{32,}")),
                // SendGrid, Hugging Face, npm, PyPI, Shopify, DigitalOcean
                new Known("SG.", Pattern.compile("SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}")),
                new Known("hf_", Pattern.compile("hf_[A-Za-z0-9]{30,}\\b")),
                new Known("npm_", Pattern.compile("npm_[A-Za-z0-9]{36}\\b")),
                new Known("pypi-", Pattern.compile("pypi-AgE[A-Za-z0-9_-]{50,}")),
                new Known("shpat_", shopify), new Known("shpss_", shopify), new Known("shpca_", shopify),
                new Known("shppa_", shopify),
                new Known("dop_v1_", digitalOcean), new Known("doo_v1_", digitalOcean),
                new Known("dor_v1_", digitalOcean),
                // JSON web tokens: header.payload.signature, the first two base64url JSON objects
                new Known("eyJ", Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}")),
                // PEM and PGP private keys, the whole block (to the end of the text when it is cut)
                new Known("-----BEGIN ", pem),
        };
    }

    private static Known[][] byFirst(Known[] all) {
        Known[][] by = new Known[128][];
        for (Known k : all) {
            char c = k.prefix.charAt(0);
            Known[] had = by[c] == null ? new Known[0] : by[c];
            by[c] = Arrays.copyOf(had, had.length + 1);
            by[c][had.length] = k;
        }
        return by;
    }

    /**
     * Whether a known format may start at {@code at}: at the start of a word. A {@code \n} or {@code \t} written
     * out as two characters (JSON inside a value) counts as a word break.
     */
    private static boolean wordStart(String text, int at) {
        if (at == 0 || text.charAt(at) == '-') {
            return true;
        }
        char before = text.charAt(at - 1);
        return !isWordChar(before) || (at >= 2 && text.charAt(at - 2) == '\\' && (before == 'n' || before == 't'));
    }

    /** A known format starting at {@code at}, if one does, added to {@code found}; returns where to go on scanning. */
    static int at(String text, int at, Ranges found) {
        char c = text.charAt(at);
        Known[] candidates = c < 128 ? BY_FIRST[c] : null;
        if (candidates == null || !wordStart(text, at)) {
            return at;
        }
        for (Known k : candidates) {
            if (text.startsWith(k.prefix, at)) {
                Matcher m = k.shape.matcher(text).region(at, text.length()).useTransparentBounds(true);
                if (m.lookingAt()) {
                    // a shape with a group hides only that part (a webhook's path, not its host)
                    found.add(m.groupCount() > 0 ? m.start(1) : at, m.end());
                    if (k.awsId) {
                        besideAccessKeyId(text, at, m.end(), found);
                    }
                    return m.end() - 1;
                }
            }
        }
        return at;
    }

    static boolean isBase64(char c) {
        return c < 128 && BASE64[c];
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /**
     * A run of base64 characters [start, end) that is exactly an AWS secret access key's length and looks generated:
     * upper and lower case letters, a digit or symbol, many distinct characters, and not a path (a leading or
     * trailing slash, "//", more than three slashes), not camel-case words run together. Hex digests (one case only),
     * class names and paths stay.
     */
    static void awsSecret(String text, int start, int end, Ranges found) {
        if (end - start != AWS_SECRET_LENGTH || text.charAt(start) == '/' || text.charAt(end - 1) == '/') {
            return;
        }
        int slashes = 0;
        int words = 0; // runs of 4+ lower case letters: "SparkListenerTaskEndReasonSerializer2024" has four
        int lowerRun = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '/' && (++slashes > 3 || text.charAt(i - 1) == '/')) {
                return;
            }
            lowerRun = c >= 'a' && c <= 'z' ? lowerRun + 1 : 0;
            if (lowerRun == 4 && ++words >= 4) {
                return; // words joined together, not random: a random key has four such runs once in a thousand
            }
        }
        if (looksGenerated(text, start, end, 20)) {
            found.add(start, end);
        }
    }

    /**
     * Upper and lower case letters and a digit or symbol, and at least {@code minDistinct} distinct characters: random
     * output rather than words (a 40-character random key has about 30 distinct characters, a camel-case identifier
     * of the same length under 20).
     */
    private static boolean looksGenerated(String text, int start, int end, int minDistinct) {
        boolean upper = false;
        boolean lower = false;
        boolean other = false;
        long seenLow = 0;
        long seenHigh = 0;
        int distinct = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            upper |= c >= 'A' && c <= 'Z';
            lower |= c >= 'a' && c <= 'z';
            other |= (c >= '0' && c <= '9') || c == '+' || c == '/';
            if (c < 64) {
                if ((seenLow & (1L << c)) == 0) {
                    seenLow |= 1L << c;
                    distinct++;
                }
            } else if (c < 128 && (seenHigh & (1L << (c - 64))) == 0) {
                seenHigh |= 1L << (c - 64);
                distinct++;
            }
        }
        return upper && lower && other && distinct >= minDistinct;
    }

    /**
     * An AWS access key id is usually written next to its secret ({@code AKIA…:secret}, {@code AKIA… secret},
     * {@code "AKIA…", "secret"}): a generated-looking string of 20+ characters just before or after it is hidden too,
     * whatever its length (session tokens are hundreds of characters long).
     */
    private static void besideAccessKeyId(String text, int idStart, int idEnd, Ranges found) {
        int n = text.length();
        int s = idEnd;
        while (s < n && s - idEnd < 4 && isSeparator(text.charAt(s))) {
            s++;
        }
        int e = s;
        while (e < n && (isBase64(text.charAt(e)) || text.charAt(e) == '_' || text.charAt(e) == '-')) {
            e++;
        }
        while (e < n && text.charAt(e) == '=') {
            e++;
        }
        if (s > idEnd && e - s >= 20 && looksGenerated(text, s, e, 12)) {
            found.add(s, e);
        }
        int b = idStart;
        // backwards '=' is padding of the string before, or the end of a name ("key=AKIA…"), never a separator
        while (b > 0 && idStart - b < 4 && isSeparator(text.charAt(b - 1)) && text.charAt(b - 1) != '=') {
            b--;
        }
        int a = b;
        while (a > 0 && (isBase64(text.charAt(a - 1)) || text.charAt(a - 1) == '=')) {
            a--;
        }
        if (b < idStart && b - a >= 20 && looksGenerated(text, a, b, 12)) {
            found.add(a, b);
        }
    }

    private static boolean isSeparator(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == ':' || c == ',' || c == ';' || c == '|' || c == '"'
                || c == '\'' || c == '=';
    }
}
