package io.sparkscope.server.web;

import io.sparkscope.server.web.http.Urls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.net.ServerSocket;
import java.util.List;

import static io.sparkscope.server.web.WebFixture.XSS1;
import static io.sparkscope.server.web.WebFixture.XSS2;
import static io.sparkscope.server.web.WebFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Escaping of user-controlled strings, the access token, the port-in-use message and /healthz without a database. */
class WebSecurityTest {
    static final String TOKEN = "s3cret-token";
    static WebServer guarded;
    static String guardedBase;

    @BeforeAll
    static void start() {
        guarded = new WebServer(WebFixture.data(), new WebServer.Options(null, TOKEN), () -> WebFixture.NOW);
        guardedBase = "http://127.0.0.1:" + guarded.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        guarded.stop();
    }

    static void escaped(String body) {
        assertFalse(body.contains(XSS1), "raw <script> in page");
        assertFalse(body.contains("<img src=x"), "raw <img> in page");
        assertFalse(body.contains("onerror=alert(1)>"), "raw attribute breakout in page");
    }

    @Test
    void xssNamesAreEscapedEverywhere() {
        for (String path : List.of("/", "/apps", "/apps?since=1d", "/apps/app-xss-1", "/apps/app-xss-2",
                "/compare?apps=app-xss-1,app-xss-2", "/history?name=" + Urls.enc(XSS1), "/history?name=" + Urls.enc(XSS2),
                "/apps?name=" + Urls.enc(XSS1), "/apps?user=" + Urls.enc(XSS2), "/apps/" + Urls.enc(XSS1))) {
            var r = get(path);
            assertTrue(r.status() == 200 || r.status() == 400, path + " " + r.status());
            escaped(r.body());
        }
        String page = get("/apps/app-xss-1").body();
        assertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "name and config value shown as text");
        assertTrue(page.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), "user and failure reason as text");
        assertEquals(1, WebRoutesTest.resultCount(get("/apps?name=" + Urls.enc(XSS1)).body()));
        assertEquals(1, WebRoutesTest.resultCount(get("/apps?user=" + Urls.enc(XSS2)).body()));
        // JSON embedded for the chart cannot close its <script> element
        String hist = get("/history?name=" + Urls.enc(XSS1)).body();
        assertTrue(hist.contains("\\u003cscript\\u003e"));
    }

    @Test
    void tokenProtectsEverything() {
        for (String path : List.of("/", "/apps", "/apps/app-etl-1", "/static/sparkscope.css", "/healthz",
                "/webjars/chart.js/4.5.1/dist/chart.umd.min.js", "/api/v1/apps")) {
            var r = WebFixture.getAt(guardedBase, path);
            assertEquals(401, r.status(), path);
            assertFalse(r.body().contains("app-etl"), path);
        }
        assertTrue(WebFixture.getAt(guardedBase, "/api/v1/apps").body().contains("\"status\":401"));
        assertEquals(401, WebFixture.getAt(guardedBase, "/apps", "Authorization", "Bearer wrong").status());
        assertEquals(401, WebFixture.getAt(guardedBase, "/apps?token=wrong").status());
        assertEquals(200, WebFixture.getAt(guardedBase, "/apps", "Authorization", "Bearer " + TOKEN).status());
        assertEquals(200, WebFixture.getAt(guardedBase, "/api/v1/apps?token=" + TOKEN).status());
        var login = WebFixture.getAt(guardedBase, "/apps?user=bob&token=" + TOKEN);
        assertEquals(302, login.status());
        assertEquals("/apps?user=bob", login.headers().firstValue("Location").orElse(""));
        String cookie = login.headers().firstValue("Set-Cookie").orElse("");
        assertTrue(cookie.startsWith(TokenAuth.COOKIE + "=") && cookie.contains("HttpOnly"), cookie);
        var withCookie = WebFixture.getAt(guardedBase, "/apps?user=bob", "Cookie", cookie.split(";")[0]);
        assertEquals(200, withCookie.status());
        assertTrue(withCookie.body().contains("app-bigmem"));
    }

    @Test
    void portInUseIsOneClearLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            WebServer s = new WebServer(WebFixture.data(), new WebServer.Options(null, null), () -> WebFixture.NOW);
            WebServer.PortInUse e = assertThrows(WebServer.PortInUse.class,
                    () -> s.start("127.0.0.1", taken.getLocalPort()));
            assertTrue(e.getMessage().contains(String.valueOf(taken.getLocalPort())), e.getMessage());
            assertTrue(e.getMessage().contains("--port"), e.getMessage());
        }
    }

    @Test
    void healthzIs503WithoutDatabase() throws Exception {
        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        nowhere.setServerNames(new String[]{"127.0.0.1"});
        try (ServerSocket closed = new ServerSocket(0)) {
            nowhere.setPortNumbers(new int[]{closed.getLocalPort()});
        }
        nowhere.setConnectTimeout(1);
        WebServer s = new WebServer(nowhere, new WebServer.Options(null, null), () -> WebFixture.NOW);
        String base = "http://127.0.0.1:" + s.start("127.0.0.1", 0);
        try {
            assertEquals(503, WebFixture.getAt(base, "/healthz").status());
            var page = WebFixture.getAt(base, "/apps");
            assertEquals(503, page.status());
            assertTrue(page.body().contains("database"));
            WebRoutesTest.noStackTrace(page.body());
            assertEquals(503, WebFixture.getAt(base, "/api/v1/apps").status());
        } finally {
            s.stop();
        }
    }
}
