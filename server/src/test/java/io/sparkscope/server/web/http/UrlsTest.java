package io.sparkscope.server.web.http;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UrlsTest {
    @Test
    void sameServerPathNeverNamesAnotherHost() {
        Map<String, List<String>> none = Map.of();
        assertEquals("/evil.example/x", Urls.sameServer("//evil.example/x", none));
        assertEquals("/evil.example/x", Urls.sameServer("/\\/\\evil.example/x", none));
        assertEquals("/evil.example", Urls.sameServer("\\\\evil.example", none));
        assertEquals("/http://evil.example/x", Urls.sameServer("/http://evil.example/x", none));
        assertEquals("/http://evil.example/x", Urls.sameServer("http://evil.example/x", none), "made a path");
        assertEquals("/%09/evil.example", Urls.sameServer("/\t/evil.example", none), "a raw tab is encoded");
        assertEquals("/a%5Cb%20c", Urls.sameServer("/a\\b c", none), "backslash and space inside are encoded");
        assertEquals("/caf%C3%A9", Urls.sameServer("/café", none), "non-ASCII as UTF-8 escapes");
        assertEquals("/apps/app-1%2F2/x;y", Urls.sameServer("/apps/app-1%2F2/x;y", none), "escapes kept as they are");
        assertEquals("/", Urls.sameServer("", none));
        assertEquals("/", Urls.sameServer("///", none));
        assertEquals("/", Urls.sameServer(null, none));
    }

    @Test
    void sameServerKeepsEveryValueInOrder() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        q.put("apps", List.of("a,b", "c", ""));
        q.put("name", List.of("x y&z"));
        q.put("empty", List.of());
        assertEquals("/compare?apps=a%2Cb&apps=c&name=x%20y%26z", Urls.sameServer("/compare", q));
    }
}
