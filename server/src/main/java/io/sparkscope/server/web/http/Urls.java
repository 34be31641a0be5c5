package io.sparkscope.server.web.http;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the site's own URLs with every dynamic part percent-encoded. */
public final class Urls {
    /** Characters a path segment may hold as they are (RFC 3986 unreserved, sub-delims, ':', '@'), '/' and '%'. */
    private static final String PATH_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%";
    private static final String HEX = "0123456789ABCDEF";

    private Urls() {
    }

    public static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** {@code /apps/{appId}[/{attemptId}]}. */
    public static String app(String appId, String attemptId) {
        return "/apps/" + enc(appId) + (attemptId == null ? "" : "/" + enc(attemptId));
    }

    /** {@code /apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}/timeline}. */
    public static String stageTimeline(String appId, String attemptId, int stageId, int stageAttemptId) {
        return app(appId, attemptId) + "/stages/" + stageId + "/" + stageAttemptId + "/timeline";
    }

    /** {@code /apps/{appId}[/{attemptId}]/queries/{queryId}}: a Structured Streaming query's page. */
    public static String query(String appId, String attemptId, String queryId) {
        return app(appId, attemptId) + "/queries/" + enc(queryId);
    }

    /** {@code /api/v1/apps/{appId}[/{attemptId}]}: what a live page polls. */
    public static String appApi(String appId, String attemptId) {
        return "/api/v1" + app(appId, attemptId);
    }

    /** {@code /apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}/tasks}: the stage's paged task table. */
    public static String stageTasks(String appId, String attemptId, int stageId, int stageAttemptId) {
        return app(appId, attemptId) + "/stages/" + stageId + "/" + stageAttemptId + "/tasks";
    }

    /** {@code /apps/{appId}[/{attemptId}]/jobs} and {@code …/executors}: the application page's other tabs. */
    public static String appTab(String appId, String attemptId, String tab) {
        return app(appId, attemptId) + "/" + tab;
    }

    public static String history(String name) {
        return "/history?name=" + enc(name == null ? "" : name);
    }

    /** {@code /history?job=…}: the runs of one job. */
    public static String historyOfJob(String jobKey) {
        return "/history?job=" + enc(jobKey == null ? "" : jobKey);
    }

    /** {@code /tune?job=…}: the job's recommended settings as a properties file. */
    public static String tune(String jobKey) {
        return "/tune?job=" + enc(jobKey == null ? "" : jobKey);
    }

    /** {@code /api/v1/tune?job=…}: the same as JSON. */
    public static String tuneApi(String jobKey) {
        return "/api/v1/tune?job=" + enc(jobKey == null ? "" : jobKey);
    }

    /** {@code path?k=v&…} skipping null/empty values, in insertion order. */
    public static String withQuery(String path, Map<String, String> params) {
        StringBuilder sb = new StringBuilder(path);
        char sep = '?';
        for (Map.Entry<String, String> e : params.entrySet()) {
            if (e.getValue() == null || e.getValue().isEmpty()) {
                continue;
            }
            sb.append(sep).append(enc(e.getKey())).append('=').append(enc(e.getValue()));
            sep = '&';
        }
        return sb.toString();
    }

    /**
     * Where a redirect to "this request again, with {@code query}" may point: always a path on this server. The path
     * comes from the request line, which a client writes as it likes; {@code //evil.example/x} or
     * {@code /\evil.example/x} echoed in a Location header would send the browser to another host. So the leading
     * run of slashes and backslashes becomes one slash, and every character outside a path's plain characters
     * (backslashes, spaces, controls, non-ASCII) is percent-encoded; escapes already in the path stay as they are.
     * Every value of every parameter is kept, in order (repeated {@code apps=a&apps=b} stays both); empty values
     * are dropped, as {@link #withQuery} does.
     */
    public static String sameServer(String rawPath, Map<String, List<String>> query) {
        StringBuilder sb = new StringBuilder("/");
        String path = rawPath == null ? "" : rawPath;
        int i = 0;
        while (i < path.length() && (path.charAt(i) == '/' || path.charAt(i) == '\\')) {
            i++;
        }
        byte[] rest = path.substring(i).getBytes(StandardCharsets.UTF_8);
        for (byte b : rest) {
            int c = b & 0xff;
            if (c < 0x80 && PATH_CHARS.indexOf(c) >= 0) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 15));
            }
        }
        char sep = '?';
        for (Map.Entry<String, List<String>> e : query.entrySet()) {
            for (String v : e.getValue()) {
                if (v == null || v.isEmpty()) {
                    continue;
                }
                sb.append(sep).append(enc(e.getKey())).append('=').append(enc(v));
                sep = '&';
            }
        }
        return sb.toString();
    }

    /** A copy of {@code params} with some keys replaced (null removes). */
    public static Map<String, String> with(Map<String, String> params, String... kv) {
        Map<String, String> out = new LinkedHashMap<>(params);
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] == null) {
                out.remove(kv[i]);
            } else {
                out.put(kv[i], kv[i + 1]);
            }
        }
        return out;
    }
}
