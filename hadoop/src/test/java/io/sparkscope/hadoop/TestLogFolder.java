package io.sparkscope.hadoop;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.testing.SyntheticLog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The logs every filesystem test reads, written locally first and then copied to HDFS or S3, so a local read of
 * the same bytes is the reference: plain, zstd, a rolling directory, an in-progress file.
 */
final class TestLogFolder {
    static final long T0 = 1_764_000_000_000L;

    private TestLogFolder() {
    }

    static Path write(Path dir) {
        try {
            new SyntheticLog("application_1764000000000_0001", "daily-etl", T0, 3, 40).writeTo(
                    dir.resolve("application_1764000000000_0001"));
            new SyntheticLog("application_1764000000000_0002", "hourly-agg", T0 + 60_000, 2, 30).seed(7)
                    .writeTo(dir.resolve("application_1764000000000_0002.zstd"), out -> {
                        try {
                            return new ZstdOutputStream(out);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
            new SyntheticLog("application_1764000000000_0003", "rolling-job", T0 + 120_000, 4, 25).seed(9)
                    .writeRolling(dir, 60);
            new SyntheticLog("application_1764000000000_0004", "still-running", T0 + 180_000, 2, 20).seed(11)
                    .running().writeTo(dir.resolve("application_1764000000000_0004.inprogress"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }
}
