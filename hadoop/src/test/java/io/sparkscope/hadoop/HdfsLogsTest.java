package io.sparkscope.hadoop;

import io.sparkscope.server.cli.CliRun;
import io.sparkscope.store.TestDb;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line on a real HDFS (Hadoop's MiniDFSCluster: a name node and a data node in this JVM), with
 * permissions on: the cluster runs as the user "hdfs", the test's own user is an ordinary one.
 */
class HdfsLogsTest {
    @TempDir
    static Path tmp;
    static MiniDFSCluster cluster;
    static String root;
    static Path local;

    @BeforeAll
    static void startHdfs() throws Exception {
        local = TestLogFolder.write(Files.createDirectories(tmp.resolve("local")));
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("hdfs").toString());
        conf.setBoolean("dfs.permissions.enabled", true);
        UserGroupInformation hdfs = UserGroupInformation.createRemoteUser("hdfs");
        cluster = hdfs.doAs((PrivilegedExceptionAction<MiniDFSCluster>) () -> {
            MiniDFSCluster c = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
            c.waitActive();
            return c;
        });
        root = "hdfs://127.0.0.1:" + cluster.getNameNodePort();
        String me = UserGroupInformation.getCurrentUser().getShortUserName();
        hdfs.doAs((PrivilegedExceptionAction<Void>) () -> {
            FileSystem fs = cluster.getFileSystem();
            org.apache.hadoop.fs.Path logs = new org.apache.hadoop.fs.Path("/logs");
            fs.mkdirs(logs);
            fs.copyFromLocalFile(false, true, listLocal(), logs);
            fs.setOwner(logs, me, null);
            org.apache.hadoop.fs.Path secret = new org.apache.hadoop.fs.Path("/private");
            fs.mkdirs(secret, new FsPermission((short) 0700));
            fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.resolve("application_1764000000000_0001").toUri()),
                    secret);
            fs.setPermission(secret, new FsPermission((short) 0700));
            return null;
        });
    }

    private static org.apache.hadoop.fs.Path[] listLocal() {
        File[] files = local.toFile().listFiles();
        org.apache.hadoop.fs.Path[] out = new org.apache.hadoop.fs.Path[files.length];
        for (int i = 0; i < files.length; i++) {
            out[i] = new org.apache.hadoop.fs.Path(files[i].toURI());
        }
        return out;
    }

    @AfterAll
    static void stop() {
        HadoopLogFileSystem.closeAll();
        if (cluster != null) {
            cluster.shutdown();
        }
    }

    @Test
    void analyzeReadsHdfsExactlyAsTheLocalCopy() {
        CliRun fromHdfs = CliRun.of("analyze", root + "/logs", "--json");
        CliRun fromDisk = CliRun.of("analyze", local.toString(), "--json");
        assertEquals(0, fromHdfs.exitCode(), fromHdfs.err());
        assertEquals(0, fromDisk.exitCode(), fromDisk.err());
        assertTrue(fromHdfs.out().contains("application_1764000000000_0003"), "the rolling log is found");
        assertEquals(fromDisk.out(), fromHdfs.out(), "same applications, same numbers, from HDFS and from disk");
    }

    @Test
    void importFromHdfsStoresWhatALocalImportStores() {
        String fromHdfs = TestDb.newDatabaseName();
        String fromDisk = TestDb.newDatabaseName();
        CliRun a = CliRun.of("import", root + "/logs", "--db", TestDb.url(fromHdfs));
        CliRun b = CliRun.of("import", local.toString(), "--db", TestDb.url(fromDisk));
        assertEquals(0, a.exitCode(), a.err());
        assertEquals(0, b.exitCode(), b.err());
        assertTrue(a.err().contains(root + "/logs/application_1764000000000_0001"), "progress names the URI: " + a.err());
        DataSource x = TestDb.dataSource(fromHdfs);
        DataSource y = TestDb.dataSource(fromDisk);
        for (String table : List.of("application", "stage_attempt", "task", "executor", "job", "finding")) {
            long n = TestDb.count(x, "select count(*) from " + table);
            assertEquals(TestDb.count(y, "select count(*) from " + table), n, table);
        }
        assertEquals(4, TestDb.count(x, "select count(*) from application"));
        assertEquals(1, TestDb.count(x, "select count(*) from application where status = 'RUNNING'"));
    }

    @Test
    void permissionDeniedIsOneLineNamingTheUri() {
        CliRun run = CliRun.of("analyze", root + "/private");
        assertEquals(2, run.exitCode(), run.err());
        String line = run.ownErrLines();
        assertTrue(line.startsWith("sparkscope analyze: " + root + "/private: "), line);
        assertTrue(line.toLowerCase().contains("permission denied"), line);
        assertFalse(line.contains("\n"), "one line: " + line);
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void missingPathIsOneLine() {
        CliRun run = CliRun.of("import", root + "/nothing-here", "--db", TestDb.url(TestDb.newDatabaseName()));
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("sparkscope import: " + root + "/nothing-here: no such file or directory", run.ownErrLines());
    }

    @Test
    void unreachableNameNodeFailsFastInOneLine() {
        long t0 = System.nanoTime();
        CliRun run = CliRun.of("analyze", "hdfs://127.0.0.1:1/logs");
        double secs = (System.nanoTime() - t0) / 1e9;
        assertEquals(2, run.exitCode(), run.err());
        String line = run.ownErrLines();
        assertTrue(line.startsWith("sparkscope analyze: hdfs://127.0.0.1:1/logs: "), line);
        assertTrue(line.contains("Connection refused") || line.contains("cannot reach"), line);
        assertFalse(line.contains("\n"), line);
        assertTrue(secs < 60, "gave up after " + secs + " s");
    }

    @Test
    void aSchemeWithoutItsConnectorSaysWhichJarIsMissing() {
        CliRun run = CliRun.of("analyze", "gs://bucket/spark-events");
        assertEquals(2, run.exitCode(), run.err());
        String line = run.ownErrLines();
        assertTrue(line.startsWith("sparkscope analyze: gs://bucket/spark-events: no Hadoop filesystem for the scheme \"gs\""),
                line);
        assertTrue(line.contains("gcs-connector"), line);
    }
}
