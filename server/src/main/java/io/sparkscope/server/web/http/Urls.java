package io.sparkscope.server.web.http;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the site's own URLs with every dynamic part percent-encoded. */
public final class Urls {
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

    public static String history(String name) {
        return "/history?name=" + enc(name == null ? "" : name);
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
