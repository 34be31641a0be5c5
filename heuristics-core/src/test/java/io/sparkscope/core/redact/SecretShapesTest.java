package io.sparkscope.core.redact;

import io.sparkscope.core.recorder.Redactor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each credential shape, and the near misses that must stay as they are. */
class SecretShapesTest {
    private static final String R = SecretShapes.REDACTED;

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            // URL user-info: only the password
            "jdbc:postgresql://app:hunter2@db:5432/x | jdbc:postgresql://app:" + R + "@db:5432/x",
            "fetch https://u:p4ss/w+rd@host/a failed | fetch https://u:" + R + "@host/a failed",
            "git clone https://ghp_x1y2z3w4v5u6t7s8r9q0@github.com/o/r | git clone https://" + R + "@github.com/o/r",
            "jdbc:oracle:thin:scott/tiger@//dbhost:1521/svc | jdbc:oracle:thin:scott/" + R + "@//dbhost:1521/svc",
            // pairs: query strings, JDBC properties, JSON, Scala maps, SQL options, log lines
            "jdbc:postgresql://db/x?user=app&password=hunter2&ssl=true"
                    + " | jdbc:postgresql://db/x?user=app&password=" + R + "&ssl=true",
            "jdbc:sqlserver://db;user=app;pwd=hunter2;encrypt=true | jdbc:sqlserver://db;user=app;pwd=" + R
                    + ";encrypt=true",
            "https://api.example.com/v1?token=abc123&page=2 | https://api.example.com/v1?token=" + R + "&page=2",
            "https://x.blob.core.windows.net/c?sv=2020-08-04&sig=Zm9vYmFy%2F | "
                    + "https://x.blob.core.windows.net/c?sv=2020-08-04&sig=" + R,
            "`{\"user\": \"app\", \"password\": \"hunter2\"}` | `{\"user\": \"app\", \"password\": \"" + R + "\"}`",
            "`{\"apiKey\":\"k-123\"}` | `{\"apiKey\":\"" + R + "\"}`",
            "Map(url -> jdbc:x, password -> hunter2) | Map(url -> jdbc:x, password -> " + R + ")",
            "`CREATE TABLE t USING jdbc OPTIONS (url 'jdbc:x', user 'app', password 'hunter2')`"
                    + " | `CREATE TABLE t USING jdbc OPTIONS (url 'jdbc:x', user 'app', password '" + R + "')`",
            "`SELECT * FROM users WHERE password = 'hunter2'` | `SELECT * FROM users WHERE password = '" + R + "'`",
            "Filter (password#12 = hunter2) | Filter (password#12 = " + R + ")",
            "SET spark.db.secret=s3cr3t | SET spark.db.secret=" + R,
            "login failed, Password: hunter2 | login failed, Password: " + R,
            "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCY | aws_secret_access_key=" + R,
            "access_key=AKIDEXAMPLE&x=1 | access_key=" + R + "&x=1",
            "fs.azure.account.key.acct.blob.core.windows.net=bXlrZXk= | fs.azure.account.key.acct.blob.core.windows.net=" + R,
            "db.credentials=app:hunter2 | db.credentials=" + R,
            "spark.custom.apikey=abc | spark.custom.apikey=" + R,
            // -D system properties
            "-Xmx2g -Dmy.db.pass=hunter2 -Dfoo=bar | -Xmx2g -Dmy.db.pass=" + R + " -Dfoo=bar",
            "-Ddbpassword=x1 -Dapp.tokenValue=t2 -Dx.credentialId=c3 | -Ddbpassword=" + R + " -Dapp.tokenValue=" + R
                    + " -Dx.credentialId=" + R,
            "-Djavax.net.ssl.trustStorePassword=changeit | -Djavax.net.ssl.trustStorePassword=" + R,
            // key-like names with generated values
            "storage.key=3fa2c9d8e7b6a5f4e3d2 | storage.key=" + R,
            "encryptionKey=Zm9vYmFyYmF6cXV4MTIz | encryptionKey=" + R,
            // authorization schemes
            "Authorization: Bearer eyJhbGciOi.abc.def | Authorization: Bearer " + R,
            "header Authorization: Basic dXNlcjpwYXNz | header Authorization: Basic " + R,
            // known formats on their own
            "key id AKIAIOSFODNN7EXAMPLE in use | key id " + R + " in use",
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked | token " + R + " leaked",
            "slack xoxb-1234567890-abcdefghij | slack " + R,
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.c2lnbmF0dXJlMTIz ok | jwt " + R + " ok",
            "`key: -----BEGIN RSA PRIVATE KEY-----\nMIIEpAIB\n-----END RSA PRIVATE KEY----- end`"
                    + " | `key: " + R + " end`",
            "Map(password->hunter2) | Map(password->" + R + ")",
            "spark-submit --password=hunter2 --name x | spark-submit --password=" + R + " --name x",
            "PaSsWoRd=hunter2 | PaSsWoRd=" + R,
    })
    void redactsTheSecretPartOnly(String text, String expected) {
        assertEquals(expected, SecretShapes.redact(text));
        assertEquals(expected, SecretShapes.redact(expected), "redacting again changes nothing");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "spark.executor.memory=4g",
            "invalid token at line 3, column 7",
            "expecting token: ')'",
            "SELECT password, user_name FROM users",
            "SELECT count(*) FROM accounts GROUP BY password",
            "ReadSchema: struct<id:bigint,password:string,token:string>",
            "FATAL: password authentication failed for user \"app\"",
            "http://host:8080/path?x=1",
            "ssh://git@github.com/o/r",
            "hdfs://namenode:8020/user/x@y",
            "spark.shuffle.bypassMergeThreshold=200",
            "tokenizer=whitespace tokens=5000",
            "partition.key=customer_id",
            "key=12",
            "Basic statistics were computed",
            "Bearer tokens are not supported",
            "the secret of success",
            "password == null || token != null",
            "passwordFile=/etc/app/pw.txt",
            "-Dlog4j.configuration=file:log4j.properties -XX:+UseG1GC",
            "java.lang.IllegalStateException: Secret key not found",
            "spark.sql.passthrough=true",
            "xghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "AS x#3L, keys=[a#1], functions=[count(1)]",
            "",
            "abc",
    })
    void leavesNearMissesAlone(String text) {
        assertSame(text, SecretShapes.redact(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"spark.custom.apikey", "fs.azure.account.key.acct.blob.core.windows.net", "db.credentials",
            "my.db.pass", "spark.hadoop.fs.s3a.secret.key", "DB_PWD", "spark.myApp.authToken", "jdbc.password",
            "spark.kubernetes.authenticate.oauthToken", "x.clientSecret", "api_key", "privateKey"})
    void secretNames(String name) {
        assertTrue(SecretShapes.isSecretName(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spark.executor.memory", "spark.shuffle.bypassMergeThreshold", "spark.yarn.keytab",
            "hadoop.security.credential.provider.path", "spark.sql.tokenizer", "spark.passthrough", "compass.home",
            "spark.signal.enabled", "spark.kubernetes.authenticate.driver.oauthTokenFile", "spark.app.name",
            "spark.sql.shuffle.partitions", "spark.serializer", "spark.kryo.registrationRequired", "monkey"})
    void ordinaryNames(String name) {
        assertFalse(SecretShapes.isSecretName(name), name);
    }

    @Test
    void configurationRedactsWholeValuesByKeyAndSecretPartsInsideOtherValues() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("spark.custom.apikey", "abc");
        props.put("spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", "bXlrZXk=");
        props.put("db.credentials", "app:pw");
        props.put("spark.driver.extraJavaOptions", "-Xss4m -Dmy.db.pass=hunter2");
        props.put("spark.sparkscope.jdbc.url", "jdbc:postgresql://app:hunter2@db/x");
        props.put("spark.executor.memory", "4g");
        props.put("spark.db.pass.enabled", "true");
        props.put("spark.storage.key", "3fa2c9d8e7b6a5f4e3d2c1");
        props.put("spark.sql.bucket.key", "customer_id");
        Map<String, String> out = Redactor.defaultRedactor().redact(props);
        assertEquals(R, out.get("spark.custom.apikey"));
        assertEquals(R, out.get("spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net"));
        assertEquals(R, out.get("db.credentials"));
        assertEquals("-Xss4m -Dmy.db.pass=" + R, out.get("spark.driver.extraJavaOptions"));
        assertEquals("jdbc:postgresql://app:" + R + "@db/x", out.get("spark.sparkscope.jdbc.url"));
        assertEquals("4g", out.get("spark.executor.memory"));
        assertEquals("true", out.get("spark.db.pass.enabled"), "a switch is not a credential");
        assertEquals(R, out.get("spark.storage.key"));
        assertEquals("customer_id", out.get("spark.sql.bucket.key"));
    }

    @Test
    void sparkscopeRegexAddsPatternsForConfigurationAndText() {
        Redactor r = Redactor.forSparkProperties(Map.of(Redactor.EXTRA_REGEX_KEY, "(?i)acme[-_]?id|ACME-[0-9]{4}"));
        assertEquals(R, r.redactValue("spark.acme_id", "42"));
        assertEquals(R, r.redactValue("spark.note", "customer ACME-1234"));
        assertEquals("job for " + R + " done", r.redactText("job for ACME-1234 done"));
        assertEquals("(?i)acme[-_]?id|ACME-[0-9]{4}", r.redactValue(Redactor.EXTRA_REGEX_KEY,
                "(?i)acme[-_]?id|ACME-[0-9]{4}"), "the setting itself is kept, so a stored snapshot can be redacted again");
        assertEquals("plain", r.redactText("plain"));
    }

    @Test
    void sparksStringRegexReplacesMatchesInText() {
        Redactor r = Redactor.forSparkProperties(Map.of(Redactor.STRING_REGEX_KEY, "internal-[a-z]+"));
        assertEquals("host " + R + " down", r.redactText("host internal-db down"));
    }

    @Test
    void invalidExtraRegexIsNamedAndTheShapesStillApply() {
        Map<String, String> props = Map.of(Redactor.EXTRA_REGEX_KEY, "([unclosed");
        assertTrue(Redactor.invalidSetting(props).startsWith(Redactor.EXTRA_REGEX_KEY), Redactor.invalidSetting(props));
        assertEquals("password=" + R, Redactor.forSparkProperties(props).redactText("password=x"));
    }

    @Test
    void anEmptyMatchingRegexDoesNotFloodTheText() {
        Redactor r = Redactor.forSparkProperties(Map.of(Redactor.EXTRA_REGEX_KEY, "x*"));
        assertEquals("a" + R + "b", r.redactText("axxb"));
    }
}
