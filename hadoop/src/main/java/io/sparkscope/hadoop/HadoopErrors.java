package io.sparkscope.hadoop;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.util.Locale;

/** What went wrong talking to a Hadoop filesystem, in one line a user can act on. */
final class HadoopErrors {
    private static final int MAX_REASON = 300;

    private HadoopErrors() {
    }

    /** A refusal: HDFS permissions, an object store's 403 (a wrong key or no grant), Kerberos. */
    static boolean denied(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String name = t.getClass().getName();
            if (t instanceof AccessDeniedException || name.endsWith(".AccessControlException")
                    || name.endsWith("AuthenticationException")) {
                return true;
            }
            if (t == t.getCause()) {
                break;
            }
        }
        return false;
    }

    /** The store could not be reached at all: nothing listening, no such host, no route, a time-out. */
    static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException || t instanceof SocketTimeoutException) {
                return true;
            }
            String m = t.getMessage();
            if (m != null && (m.contains("Connection refused") || m.contains("UnknownHostException"))) {
                return true;
            }
            if (t == t.getCause()) {
                break;
            }
        }
        return false;
    }

    /** The reason in one masked line, without Hadoop's wiki links and stack-trace tails. */
    static String reason(Throwable e, Masker masker) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            m = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                    : e.getClass().getSimpleName();
        }
        int nl = m.indexOf('\n');
        if (nl >= 0) {
            m = m.substring(0, nl);
        }
        int more = m.indexOf("; For more details see");
        if (more >= 0) {
            m = m.substring(0, more);
        }
        m = m.strip();
        if (m.length() > MAX_REASON) {
            m = m.substring(0, MAX_REASON) + "…";
        }
        String lower = m.toLowerCase(Locale.ROOT);
        if (denied(e) && (lower.contains("403") || lower.contains("forbidden") || lower.contains("signature"))) {
            m = "access denied by the store (HTTP 403: wrong credentials, or no permission): " + m;
        } else if (denied(e) && !lower.contains("permission denied") && !lower.contains("access denied")) {
            m = "permission denied: " + m;
        } else if (unreachable(e) && !lower.contains("connection refused")) {
            m = "cannot reach the filesystem: " + m;
        }
        return masker.mask(m);
    }
}
