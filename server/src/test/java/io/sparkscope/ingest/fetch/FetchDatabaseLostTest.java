package io.sparkscope.ingest.fetch;

import com.sun.net.httpserver.HttpServer;
import io.sparkscope.server.cli.CliRun;
import io.sparkscope.server.cli.HeldWrite;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code fetch} when the database stops mid-run: one line, exit 2, no further application tried, and the end time
 * to remember is not moved past what was not stored. The History Server is a stand-in serving the two endpoints
 * {@code --source logs} uses ({@code applications?status=completed} and each attempt's {@code …/logs} zip) from event
 * logs the test writes; the database is a real PostgreSQL that holds the second application's write on a lock
 * until the server is stopped.
 */
class FetchDatabaseLostTest {
    private static final long T0 = 1_764_400_000_000L;

    /** A tiny complete application, as {@code ImportRegressionTest} writes them. */
    private static String log(String appId, long start) {
        long end = start + 10_000;
        return String.join("\n",
                "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"nightly\",\"App ID\":\"" + appId
                        + "\",\"Timestamp\":" + start + ",\"User\":\"u\"}",
                "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + end + "}") + "\n";
    }

    private static byte[] zip(String name, String content) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(bytes)) {
            z.putNextEntry(new ZipEntry(name));
            z.write(content.getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        return bytes.toByteArray();
    }

    @Test
    void aDatabaseLostMidFetchIsOneLineAndStopsTheRun(@TempDir Path dir) throws Exception {
        Map<String, byte[]> zips = new ConcurrentHashMap<>();
        StringBuilder list = new StringBuilder("[");
        for (int i = 1; i <= 4; i++) {
            String id = "app-f-" + i;
            long start = T0 + i * 3_600_000L;
            zips.put("/api/v1/applications/" + id + "/logs", zip(id, log(id, start)));
            list.append(i > 1 ? "," : "").append("{\"id\":\"").append(id).append("\",\"name\":\"nightly\",")
                    .append("\"attempts\":[{\"completed\":true,\"sparkUser\":\"u\",\"appSparkVersion\":\"3.5.1\",")
                    .append("\"startTimeEpoch\":").append(start).append(",\"endTimeEpoch\":").append(start + 10_000)
                    .append("}]}");
        }
        byte[] apps = list.append("]").toString().getBytes(StandardCharsets.UTF_8);
        HttpServer shs = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        shs.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            byte[] body = path.equals("/api/v1/applications") ? apps : zips.get(path);
            ex.getResponseHeaders().add("Content-Type", path.endsWith("/logs") ? "application/octet-stream"
                    : "application/json");
            ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) {
                ex.getResponseBody().write(body);
            }
            ex.close();
        });
        shs.start();
        try (HeldWrite db = HeldWrite.holdingInsertOf("app-f-2")) {
            db.start(List.of("fetch", "--history-server", "http://127.0.0.1:" + shs.getAddress().getPort(),
                    "--db", db.jdbcUrl(), "--source", "logs", "--threads", "1"));
            assertEquals(1, TestDb.count(db.dataSource(), "select count(*) from application where app_id = 'app-f-1'"));
            db.stopDatabase();
            CliRun run = db.result();
            assertEquals(2, run.exitCode(), run.err());
            List<String> lost = run.err().lines().filter(l -> l.contains("lost the database")).toList();
            assertEquals(1, lost.size(), run.err());
            assertTrue(lost.get(0).startsWith("sparkscope fetch: lost the database ")
                    && lost.get(0).contains("stopped after 1 fetched, 0 failed"), run.err());
            assertTrue(run.err().contains("[1/4] app-f-1: via event logs: stored"), run.err());
            assertFalse(run.err().contains("app-f-3") || run.err().contains("app-f-4"), run.err());
            assertFalse(run.err().contains("\tat "), run.err());
        } finally {
            shs.stop(0);
        }
    }
}
