package io.sparkscope.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Which database a spooled snapshot is meant for: the SHA-256 of the JDBC URL's hosts, ports, database and
 * schema-selecting parameters, and the user. Neither the password nor the URL is kept, so a spool file does not say
 * where the database is. Connection tuning (timeouts, SSL, application name…) and the spelling of the URL's prefix,
 * host case or the default port 5432 do not change the target, so {@code import --spool --db …} written by hand
 * matches what the listener was given.
 */
public final class SpoolTarget {
    private static final String PREFIX = "jdbc:postgresql:";
    /** Parameters that choose what the connection reads and writes; every other one is left out. */
    private static final List<String> SELECTING = List.of("currentschema", "options");

    private SpoolTarget() {
    }

    /** @param user the explicit user (listener's {@code jdbc.user}, {@code --user}); null to take the URL's */
    public static String of(String jdbcUrl, String user) {
        if (jdbcUrl == null) {
            throw new IllegalArgumentException("a spool target needs a JDBC URL");
        }
        Normalised n = normalise(jdbcUrl.strip());
        String effectiveUser = user != null && !user.isBlank() ? user.strip() : n.user;
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest(("sparkscope-spool-target/1\n" + n.url + "\n" + effectiveUser)
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The parts that identify the database, and the user the URL names (user-info or {@code user=}), or "". */
    record Normalised(String url, String user) {
    }

    static Normalised normalise(String url) {
        String user = "";
        String rest = url;
        if (rest.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            rest = rest.substring(PREFIX.length());
        }
        String query = "";
        int q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        String hosts = "";
        String database = rest;
        if (rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            hosts = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            database = slash < 0 ? "" : rest.substring(slash + 1);
            int at = hosts.lastIndexOf('@');
            if (at >= 0) {
                String info = hosts.substring(0, at);
                int colon = info.indexOf(':');
                user = colon < 0 ? info : info.substring(0, colon);
                hosts = hosts.substring(at + 1);
            }
        }
        List<String> hostList = new ArrayList<>();
        for (String h : hosts.split(",")) {
            String host = h.strip().toLowerCase(Locale.ROOT);
            if (host.endsWith(":5432")) {
                host = host.substring(0, host.length() - 5);
            }
            if (host.isEmpty()) {
                host = "localhost"; // the driver's default
            }
            hostList.add(host);
        }
        List<String> selecting = new ArrayList<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = (eq < 0 ? pair : pair.substring(0, eq)).strip();
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("user")) {
                user = value;
            } else if (SELECTING.contains(lower)) {
                selecting.add(lower + "=" + value);
            }
        }
        selecting.sort(null);
        String normalised = String.join(",", hostList) + "/" + database
                + (selecting.isEmpty() ? "" : "?" + String.join("&", selecting));
        return new Normalised(normalised, user);
    }
}
