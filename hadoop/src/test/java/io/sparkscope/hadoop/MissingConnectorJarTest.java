package io.sparkscope.hadoop;

import io.sparkscope.server.cli.CliRun;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * hadoop-aws on the classpath without commons-lang3, which it needs and Hadoop's shaded client jars do not bring (a
 * common way to assemble the classpath by hand): one line naming the missing jar, not a NoClassDefFoundError with its
 * stack trace. Run as its own JVM, the classpath of this test less that jar.
 */
class MissingConnectorJarTest {
    @Test
    void s3aWithoutCommonsLang3NamesTheMissingJar() throws Exception {
        String full = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = Arrays.asList(full.split(File.pathSeparator));
        String withoutLang3 = entries.stream().filter(e -> !isCommonsLang3(e))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(entries.stream().anyMatch(MissingConnectorJarTest::isCommonsLang3),
                "the test classpath has commons-lang3 to leave out: " + full);
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        String uri = "s3a://events/spark-logs";
        Process p = new ProcessBuilder(java.toString(), "-cp", withoutLang3, "-Daws.disableEc2Metadata=true",
                "io.sparkscope.server.cli.Main", "analyze", uri,
                "--hadoop-conf", "fs.s3a.endpoint=http://127.0.0.1:1",
                "--hadoop-conf", "fs.s3a.endpoint.region=us-east-1",
                "--hadoop-conf", "fs.s3a.path.style.access=true",
                "--hadoop-conf", "fs.s3a.aws.credentials.provider=org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
                "--hadoop-conf", "fs.s3a.access.key=AKIASPARKSCOPETEST01",
                "--hadoop-conf", "fs.s3a.secret.key=not-a-secret")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the command ended");
        CliRun run = new CliRun(p.exitValue(), new String(out, StandardCharsets.UTF_8), err);
        assertEquals(2, run.exitCode(), err);
        String line = run.ownErrLines();
        assertFalse(err.contains("NoClassDefFoundError"), err);
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
        assertTrue(line.startsWith("sparkscope analyze: " + uri + ": the Hadoop connector for \"s3a\" needs the class "
                + "org.apache.commons.lang3."), line);
        assertTrue(line.endsWith("add commons-lang3 (e.g. commons-lang3-3.12.0.jar, the version of the Hadoop "
                + "client's)"), line);
        assertFalse(line.contains("\n"), line);
    }

    private static boolean isCommonsLang3(String entry) {
        return Paths.get(entry).getFileName().toString().startsWith("commons-lang3-");
    }
}
