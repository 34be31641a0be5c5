package io.sparkscope.server.web;

import io.sparkscope.server.web.http.Urls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sparkscope.server.web.WebFixture.XSS1;
import static io.sparkscope.server.web.WebFixture.XSS2;
import static io.sparkscope.server.web.WebFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Escaping of user-controlled strings, the access token, redirects that stay on this server, the port-in-use message
 * and /healthz without a database.
 */
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

    /**
     * Request targets whose path, echoed in a Location header, would send a browser to another host:
     * protocol-relative ({@code //host}), backslashes (browsers read {@code /\host} as {@code //host}), a tab, raw or
     * encoded (browsers drop a raw one, so {@code /<tab>/host} becomes {@code //host}), an absolute URL inside the
     * path, encoded slashes; and the static folders, where a server might add a trailing slash by redirecting. Sent
     * on a raw socket, as HTTP clients refuse to send most of them.
     */
    static final List<String> HOSTILE_PATHS = List.of("//evil.example/x", "///evil.example/x", "//evil.example",
            "/\\evil.example/x", "/\\/evil.example", "\\\\evil.example", "/%5Cevil.example/x", "/%2F%2Fevil.example/x",
            "/%09/evil.example", "/\t/evil.example", "/http://evil.example/x", "//evil.example/apps",
            "//evil.example/%2e%2e/apps", "/apps//evil.example", "/static//evil.example", "//static/sparkscope.css",
            "/static", "/static/", "/webjars/chart.js/4.5.1/dist", "//webjars/chart.js/4.5.1/dist",
            "/webjars/chart.js/4.5.1/dist/");

    /** A Location that browsers resolve to a path on the server that sent it, never to another host. */
    static void assertSameServer(String base, String location, String sentFor) {
        assertTrue(location.matches("/[^/\\\\].*|/"), sentFor + " -> Location " + location);
        assertTrue(location.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '\\'), sentFor + " -> Location " + location);
        assertEquals("127.0.0.1", URI.create(base).resolve(location).getHost(), sentFor + " -> Location " + location);
    }

    @Test
    void redirectsStayOnThisServer() throws Exception {
        int redirects = 0;
        for (String path : HOSTILE_PATHS) {
            for (String base : List.of(WebFixture.base(), guardedBase)) {
                String target = path + (base.equals(guardedBase) ? (path.contains("?") ? "&" : "?") + "token=" + TOKEN : "");
                RawResponse r = raw(base, target);
                assertTrue(r.status() < 500, target + " -> " + r.status());
                if (r.location() != null) {
                    redirects++;
                    assertSameServer(base, r.location(), target);
                }
            }
        }
        assertTrue(redirects >= HOSTILE_PATHS.size() - 2, "the token login redirects (Jetty may refuse a target or two)");
        // The case from the report, exactly: the path stays, as a path of this server.
        assertEquals("/evil.example/x?user=bob", raw(guardedBase, "//evil.example/x?user=bob&token=" + TOKEN).location());
        assertEquals("/evil.example/x", raw(guardedBase, "/\\evil.example/x?token=" + TOKEN).location());
    }

    @Test
    void tokenLoginKeepsEveryParameterValue() {
        var login = WebFixture.getAt(guardedBase, "/compare?apps=app-etl-3&apps=app-etl-4&token=" + TOKEN);
        assertEquals(302, login.status());
        assertEquals("/compare?apps=app-etl-3&apps=app-etl-4", login.headers().firstValue("Location").orElse(""));
        var mixed = WebFixture.getAt(guardedBase, "/compare?apps=app-etl-3,app-etl-4&token=" + TOKEN
                + "&apps=app-etl-5&apps=&name=x%20y");
        String location = mixed.headers().firstValue("Location").orElse("");
        assertEquals("/compare?apps=app-etl-3%2Capp-etl-4&apps=app-etl-5&name=x%20y", location,
                "every value in order; only the token and the empty value are gone");
        String cookie = login.headers().firstValue("Set-Cookie").orElse("").split(";")[0];
        var page = WebFixture.getAt(guardedBase, location, "Cookie", cookie);
        assertEquals(200, page.status());
        assertTrue(page.body().contains("Compare 3 runs"), "all three runs compared after the redirect");
    }

    record RawResponse(int status, String location) {
    }

    /** One GET with the request target exactly as given (no client-side checking or normalising). */
    static RawResponse raw(String base, String target) throws IOException {
        URI b = URI.create(base);
        try (Socket s = new Socket(b.getHost(), b.getPort())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: " + b.getHost() + ":" + b.getPort()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            Matcher status = Pattern.compile("HTTP/1\\.1 (\\d{3}).*").matcher(in.readLine());
            assertTrue(status.matches(), "an HTTP status line for " + target);
            String location = null;
            List<String> headers = new ArrayList<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                headers.add(line);
                if (line.regionMatches(true, 0, "Location:", 0, 9)) {
                    location = line.substring(9).strip();
                }
            }
            return new RawResponse(Integer.parseInt(status.group(1)), location);
        }
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
