package io.sparkscope.core.redact;

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
            // provider tokens by their prefix, whatever surrounds them
            "conn dapi0123456789abcdef0123456789abcdef | conn " + R,
            "oauth gho_16C7e42F292c6912E7710c838347Ae178B4a ok | oauth " + R + " ok",
            "pat github_pat_11ABCDEFG0abcdefghijklmnopqrstuvwxyz0123 | pat " + R,
            "glpat-AbCdEfGhIj0123456789 | " + R,
            "slack xoxp-1234567890-1234567890-abcdefabcdef | slack " + R,
            "xapp-1-A0123456789-1234567890123-abcdef0123456789 | " + R,
            "post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX now"
                    + " | post to https://hooks.slack.com/services/" + R + " now",
            "key=ASIAIOSFODNN7EXAMPLE | key=" + R,
            "google AIzaSyA1234567890abcdefghijklmnopqrstuv | google " + R,
            "oauth ya29.a0AfH6SMBx3kZ0123456789abcdefgh | oauth " + R,
            "charge with sk_live_4eC39HqLyjWDarjtT1zdp7dc | charge with " + R,
            "rk_test_4eC39HqLyjWDarjtT1zdp7dc | " + R,
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw | " + R,
            "openai sk-proj-abcDEF1234567890abcdefGHIJKLMNOPqrstuv | openai " + R,
            "mail SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefg | mail " + R,
            "hub hf_abcdefghijklmnopqrstuvwxyz01234567 | hub " + R,
            "npm_abcdefghijklmnopqrstuvwxyz0123456789 | " + R,
            "shpat_0123456789abcdef0123456789abcdef | " + R,
            "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef | " + R,
            "pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMAACKlsz | " + R,
            "`k: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----`"
                    + " | `k: " + R + "`",
            "`-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF==\n-----END PGP PRIVATE KEY BLOCK----- x`"
                    + " | `" + R + " x`",
            "`{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQ==\\n-----END PRIVATE KEY-----\\n\"}`"
                    + " | `{\"private_key\": \"" + R + "\"}`",
            // Azure storage connection strings and SAS tokens
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6+cXV4/MTIz==;EndpointSuffix=x"
                    + " | DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + R + ";EndpointSuffix=x",
            "SharedAccessSignature=sv=2022-11-02&ss=b&sig=abc%2Bdef%3D | SharedAccessSignature=sv=2022-11-02&ss=b&sig="
                    + R,
            // AWS secret keys: 40 generated characters alone, or any generated string next to an access key id
            "spark.myapp.aws.value=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY | spark.myapp.aws.value=" + R,
            "pair AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCY | pair " + R + " " + R,
            "pair AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCY@bucket | pair " + R + ":" + R + "@bucket",
            "FwoGZXIvYXdzEBYaDHhBc2Vzc2lvblRva2Vu+/ab== ASIAIOSFODNN7EXAMPLE | " + R + " " + R,
            // names: new words, invisible characters, compatibility forms
            "spark.myapp.passcode=1234 | spark.myapp.passcode=" + R,
            "spark.myapp.creds=u:p | spark.myapp.creds=" + R,
            "spark.myapp.auth=letmein | spark.myapp.auth=" + R,
            "?user=a&auth=abc123 | ?user=a&auth=" + R,
            "spark.myapp.pass\u200Bword=hunter2 | spark.myapp.pass\u200Bword=" + R,
            "pass\u00ADword=hunter2 | pass\u00ADword=" + R,
            "\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44=hunter2 | "
                    + "\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44=" + R,
            // percent-encoded pairs: found decoded, replaced as written
            "scan jdbc:x?user%3Dapp%26password%3Dhunter2%26ssl%3Dtrue | scan jdbc:x?user%3Dapp%26password%3D" + R
                    + "%26ssl%3Dtrue",
            "%70assword=hunter2&x=1 | %70assword=" + R + "&x=1",
            "password%253Dhunter2 | password%253D" + R,
            "pass%E2%80%8Bword=hunter2 | pass%E2%80%8Bword=" + R,
            "password%3Dhunter%21%40 end | password%3D" + R + " end",
            "opts password\\u003dhunter2 | opts password\\u003d" + R,
            "\\u0070assword=hunter2 | \\u0070assword=" + R,
            // free text: a credential word, a space or a colon, and a generated-looking value
            "java.lang.RuntimeException: login failed, password Hunter2 rejected"
                    + " | java.lang.RuntimeException: login failed, password " + R + " rejected",
            "StreamingQueryException: sink auth failed: password  Hunter2 | StreamingQueryException: sink auth failed:"
                    + " password  " + R,
            "refresh failed, token: abc123 expired | refresh failed, token: " + R + " expired",
            "vault secret: s3cr3t!x | vault secret: " + R,
            "X-Api-Key: k3y-v4lue-1 | X-Api-Key: " + R,
            "the db token 9f8e7d6c5b4a | the db token " + R,
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
            // a credential word in a name or in prose, with nothing generated after it
            "spark.app.name=secret-app",
            "job group secret-project nightly",
            "unexpected token EOF at line 1",
            "CREATE TABLE t (token STRING, password VARCHAR(64), secret String)",
            "SELECT password FROM users ORDER BY token DESC",
            "token 123 for alice",
            "author=alice oauth.enabled=true spark.authenticate=true authType=basic",
            // not quite a provider's token
            "skew detected in sk_ table, sk-learn, dapper dapi, hf_table, npm_config, ya29 and SG.x",
            "ghp_short",
            // 40 characters that are not an AWS secret: a hex digest, words run together, a JVM path
            "commit e7c4ea9d1f0b2c3a4e5f60718293a4b5c6d7e8f9 and E7C4EA9D1F0B2C3A4E5F60718293A4B5C6D7E8F9",
            "SparkListenerTaskEndReasonSerializer2024",
            "at org/apache/spark/sql/execution/SparkPlan.execute",
            // percent signs that decode to nothing secret
            "WHERE name LIKE '%ab%' AND x = '100%25'",
            "\uFF46\uFF55\uFF4C\uFF4C width and zero\u200Bwidth text",
            "C:\\\\data\\\\users and a \\\\u escape \\u0041BC",
    })
    void leavesNearMissesAlone(String text) {
        assertSame(text, SecretShapes.redact(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"spark.custom.apikey", "fs.azure.account.key.acct.blob.core.windows.net", "db.credentials",
            "my.db.pass", "spark.hadoop.fs.s3a.secret.key", "DB_PWD", "spark.myApp.authToken", "jdbc.password",
            "spark.kubernetes.authenticate.oauthToken", "x.clientSecret", "api_key", "privateKey",
            "spark.myapp.passcode", "spark.myapp.creds", "spark.myapp.auth", "basic_auth", "spark.myAuth",
            "spark.myapp.credential", "spark.myapp.credentials", "spark.myapp.apikey", "spark.myapp.privatekey",
            "spark.myapp.pass\u200Bword", "spark.myapp.pa\u200Cssw\u200Dord", "pass\u2060word", "\uFEFFpassword",
            "pass\u00ADword", "spark.\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44", "spark.my%70assword"})
    void secretNames(String name) {
        assertTrue(SecretShapes.isSecretName(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spark.executor.memory", "spark.shuffle.bypassMergeThreshold", "spark.yarn.keytab",
            "hadoop.security.credential.provider.path", "spark.sql.tokenizer", "spark.passthrough", "compass.home",
            "spark.signal.enabled", "spark.kubernetes.authenticate.driver.oauthTokenFile", "spark.app.name",
            "spark.sql.shuffle.partitions", "spark.serializer", "spark.kryo.registrationRequired", "monkey",
            "spark.myapp.author", "spark.authenticate", "spark.myapp.oauth.enabled", "spark.myapp.authType",
            "spark.databricks.conn", "spark.myapp.aws.value", "spark.credit.limit", "hadoop.security.auth_to_local",
            "ipc.client.fallback-to-simple-auth-allowed"})
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

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "spark.databricks.conn | dapi0123456789abcdef0123456789abcdef | " + R,
            "spark.myapp.aws.value | wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY | " + R,
            "spark.myapp.passcode | 4711 | " + R,
            "spark.myapp.creds | alice:wonderland | " + R,
            "spark.myapp.auth | letmein | " + R,
            "spark.myapp.pass\u200Bword | hunter2 | " + R,
            "spark.myapp.author | alice | alice",
            "spark.myapp.note | see ghp_abcdefghijklmnopqrstuvwxyz0123456789 for access | see " + R + " for access",
    })
    void configurationValuesShapedLikeCredentialsAreHiddenWhateverTheirKey(String key, String value, String expected) {
        assertEquals(expected, Redactor.defaultRedactor().redact(Map.of(key, value)).get(key));
    }

    @Test
    void theApplicationsNameIsNeverHiddenWholeOnlyACredentialInsideIt() {
        Redactor spark = Redactor.defaultRedactor();
        assertEquals("secret-app", spark.redactValue("spark.app.name", "secret-app"));
        assertEquals("token refresher", spark.redactValue("spark.app.name", "token refresher"));
        assertEquals("load password=" + R, spark.redactValue("spark.app.name", "load password=hunter2"));
        assertEquals("nightly " + R, spark.redactValue("spark.app.name", "nightly AKIAIOSFODNN7EXAMPLE"));
        // even a spark.redaction.regex that matches the key does not hide the name
        Redactor custom = Redactor.forSparkProperties(Map.of(Redactor.REDACTION_REGEX_KEY, "(?i)name|secret"));
        assertEquals("secret-app", custom.redactValue("spark.app.name", "secret-app"));
        assertEquals(R, custom.redactValue("spark.myapp.name", "x"), "other keys keep Spark's rule");
        // Spark's rule still holds for other keys: a value that matches the regex is hidden
        assertEquals(R, spark.redactValue("spark.yarn.tags", "secret-project"));
    }

    @Test
    void aCredentialFoundInTheDecodedTextIsReplacedInTheTextAsWritten() {
        Decoded d = Decoded.of("a%70b\u200Bc\uFF44%E2%80%8Be");
        assertEquals("apbcde", d.text());
        assertEquals(1, d.originalStart(1), "p starts at its %");
        assertEquals(4, d.originalEnd(2), "and ends after its escape");
        assertEquals(7, d.originalStart(4), "the full-width d");
        assertEquals(8, d.originalEnd(5), "and ends after it");
        assertEquals(17, d.originalStart(5), "e, after the encoded zero-width space, which was dropped");
        assertSame(null, Decoded.of("plain ascii text"));
        assertSame(null, Decoded.of("\u4E2D\u6587 text"), "normalised non-ASCII needs no view");
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
