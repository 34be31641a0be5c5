package io.sparkscope.hadoop;

import io.sparkscope.server.cli.CliRun;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A name node or object store that accepts the connection and then never answers (a hung service, a firewall that
 * lets the handshake through): the command line gives up in seconds with one line, as it does when nothing listens.
 */
class SilentEndpointTest {
    /*
     * Hadoop's own budgets took 121 s (hdfs) and 183 s (s3a) here. Now one name node call waits 10 s; one S3 call
     * waits 15 s, the least S3A allows, tried once. The bounds leave room for loading the clients' classes.
     */
    private static final double HDFS_WITHIN_SECONDS = 20;
    private static final double S3A_WITHIN_SECONDS = 30;

    private static ServerSocket silent;
    private static final List<Socket> held = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void listen() throws IOException {
        // never ask an EC2 metadata service for credentials or a region: only 127.0.0.1 is ever contacted
        System.setProperty("aws.disableEc2Metadata", "true");
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept()); // kept open, never read from nor written to
                } catch (IOException e) {
                    return;
                }
            }
        }, "silent-endpoint");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void close() throws IOException {
        HadoopLogFileSystem.closeAll();
        silent.close();
        for (Socket s : held) {
            s.close();
        }
    }

    private static String address() {
        return "127.0.0.1:" + silent.getLocalPort();
    }

    private static void assertGivesUpQuicklyInOneLine(double withinSeconds, String uri, String... args) {
        long t0 = System.nanoTime();
        CliRun run = CliRun.of(args);
        double secs = (System.nanoTime() - t0) / 1e9;
        assertEquals(2, run.exitCode(), run.err());
        String line = run.ownErrLines();
        assertTrue(line.startsWith("sparkscope analyze: " + uri + ": "), line);
        assertFalse(line.contains("\n"), line);
        assertTrue(secs < withinSeconds, "gave up after " + secs + " s: " + line);
        assertTrue(held.size() > 0, "the endpoint was reached");
    }

    @Test
    void aNameNodeThatNeverAnswersFailsWithinSeconds() {
        String uri = "hdfs://" + address() + "/logs";
        assertGivesUpQuicklyInOneLine(HDFS_WITHIN_SECONDS, uri, "analyze", uri);
    }

    @Test
    void anObjectStoreThatNeverAnswersFailsWithinSeconds() {
        String uri = "s3a://events/spark-logs";
        assertGivesUpQuicklyInOneLine(S3A_WITHIN_SECONDS, uri, "analyze", uri,
                "--hadoop-conf", "fs.s3a.endpoint=http://" + address(),
                "--hadoop-conf", "fs.s3a.endpoint.region=us-east-1",
                "--hadoop-conf", "fs.s3a.path.style.access=true",
                "--hadoop-conf", "fs.s3a.connection.ssl.enabled=false",
                "--hadoop-conf", "fs.s3a.aws.credentials.provider=org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
                "--hadoop-conf", "fs.s3a.access.key=AKIASPARKSCOPETEST01",
                "--hadoop-conf", "fs.s3a.secret.key=not-a-secret-" + "x".repeat(20));
    }
}
