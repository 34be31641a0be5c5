package io.sparkscope.hadoop;

import io.sparkscope.server.cli.CliRun;
import io.sparkscope.store.TestDb;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line on a real S3 API (s3proxy over an in-memory store, on 127.0.0.1) through Hadoop's S3A, with
 * signed requests: right keys read, a wrong secret is refused by the server and never printed.
 */
class S3LogsTest {
    private static final String ACCESS_KEY = "AKIASPARKSCOPETEST01";
    private static final String SECRET_KEY = "s3cr3t/Sparkscope+Test/Key0123456789abcd";

    @TempDir
    static Path tmp;
    static S3Proxy proxy;
    static BlobStoreContext store;
    static Path local;
    static String endpoint;

    @BeforeAll
    static void startS3() throws Exception {
        // never ask an EC2 metadata service for credentials or a region: only 127.0.0.1 is ever contacted
        System.setProperty("aws.disableEc2Metadata", "true");
        local = TestLogFolder.write(Files.createDirectories(tmp.resolve("local")));
        store = ContextBuilder.newBuilder("transient").credentials("unused", "unused").build(BlobStoreContext.class);
        proxy = S3Proxy.builder().blobStore(store.getBlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        proxy.start();
        for (int i = 0; i < 100 && !"STARTED".equals(proxy.getState()); i++) {
            Thread.sleep(50);
        }
        endpoint = "http://127.0.0.1:" + proxy.getPort();
        BlobStore blobs = store.getBlobStore();
        blobs.createContainerInLocation(null, "events");
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(local)) {
            walk.filter(Files::isRegularFile).forEach(files::add);
        }
        for (Path f : files) {
            String key = "spark-logs/" + local.relativize(f).toString().replace('\\', '/');
            blobs.putBlob("events", blobs.blobBuilder(key).payload(Files.readAllBytes(f)).build());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        HadoopLogFileSystem.closeAll();
        if (proxy != null) {
            proxy.stop();
        }
        if (store != null) {
            store.close();
        }
    }

    static List<String> s3a(String secret) {
        return List.of("--hadoop-conf", "fs.s3a.endpoint=" + endpoint,
                "--hadoop-conf", "fs.s3a.endpoint.region=us-east-1",
                "--hadoop-conf", "fs.s3a.path.style.access=true",
                "--hadoop-conf", "fs.s3a.connection.ssl.enabled=false",
                "--hadoop-conf", "fs.s3a.aws.credentials.provider=org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
                "--hadoop-conf", "fs.s3a.access.key=" + ACCESS_KEY,
                // Spark users write it with the spark.hadoop. prefix
                "--hadoop-conf", "spark.hadoop.fs.s3a.secret.key=" + secret);
    }

    static CliRun run(String secret, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(s3a(secret));
        return CliRun.of(all.toArray(String[]::new));
    }

    @Test
    void analyzeReadsS3ExactlyAsTheLocalCopy() {
        CliRun fromS3 = run(SECRET_KEY, "analyze", "s3a://events/spark-logs", "--json");
        CliRun fromDisk = CliRun.of("analyze", local.toString(), "--json");
        assertEquals(0, fromS3.exitCode(), fromS3.err());
        assertEquals(fromDisk.out(), fromS3.out(), "same applications, same numbers, from S3 and from disk");
        assertFalse(fromS3.err().contains(SECRET_KEY), "the secret is never printed");
    }

    @Test
    void importFromS3StoresWhatALocalImportStores() {
        String fromS3 = TestDb.newDatabaseName();
        String fromDisk = TestDb.newDatabaseName();
        CliRun a = run(SECRET_KEY, "import", "s3a://events/spark-logs/", "--db", TestDb.url(fromS3));
        CliRun b = CliRun.of("import", local.toString(), "--db", TestDb.url(fromDisk));
        assertEquals(0, a.exitCode(), a.err());
        assertEquals(0, b.exitCode(), b.err());
        DataSource x = TestDb.dataSource(fromS3);
        DataSource y = TestDb.dataSource(fromDisk);
        for (String table : List.of("application", "stage_attempt", "task", "executor", "job", "finding")) {
            assertEquals(TestDb.count(y, "select count(*) from " + table),
                    TestDb.count(x, "select count(*) from " + table), table);
        }
        assertEquals(4, TestDb.count(x, "select count(*) from application"));
    }

    @Test
    void wrongCredentialsAreOneLineWithTheSecretMasked() {
        String wrong = "Wr0ngSecretValueThatMustNotShow";
        CliRun run = run(wrong, "analyze", "s3a://events/spark-logs");
        assertEquals(2, run.exitCode(), run.err());
        String line = run.ownErrLines();
        assertTrue(line.startsWith("sparkscope analyze: s3a://events/spark-logs: "), line);
        assertTrue(line.contains("403") || line.toLowerCase().contains("denied"), line);
        assertFalse(line.contains("\n"), "one line: " + line);
        assertFalse(run.err().contains(wrong), "the secret is never printed: " + run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void credentialsInTheUriAreMasked() {
        CliRun run = run(SECRET_KEY, "analyze", "s3a://" + ACCESS_KEY + ":UriSecretNeverShown@events/none");
        assertEquals(2, run.exitCode(), run.err());
        assertFalse(run.err().contains("UriSecretNeverShown"), run.err());
        assertTrue(run.ownErrLines().startsWith("sparkscope analyze: s3a://*********(redacted)@events/none: credentials in the URI"),
                run.ownErrLines());
    }

    @Test
    void unreachableEndpointIsOneLine() {
        List<String> args = new ArrayList<>(List.of("analyze", "s3a://events/spark-logs"));
        for (String a : s3a(SECRET_KEY)) {
            args.add(a.replace(endpoint, "http://127.0.0.1:1"));
        }
        long t0 = System.nanoTime();
        CliRun run = CliRun.of(args.toArray(String[]::new));
        double secs = (System.nanoTime() - t0) / 1e9;
        assertEquals(2, run.exitCode(), run.err());
        String line = run.ownErrLines();
        assertTrue(line.startsWith("sparkscope analyze: s3a://events/spark-logs: "), line);
        assertTrue(line.toLowerCase().contains("connect") || line.contains("reach"), line);
        assertFalse(line.contains("\n"), line);
        assertTrue(secs < 90, "gave up after " + secs + " s");
    }

    @Test
    void missingBucketIsOneLine() {
        CliRun run = run(SECRET_KEY, "analyze", "s3a://no-such-bucket/logs");
        assertEquals(2, run.exitCode(), run.err());
        String line = run.ownErrLines();
        assertTrue(line.startsWith("sparkscope analyze: s3a://no-such-bucket/logs: "), line);
        assertFalse(line.contains("\n"), line);
    }
}
