package io.sparkscope.core.recorder;

import java.lang.management.ManagementFactory;

/**
 * Measures {@link RecorderOptions#BYTES_PER_RETAINED_JOB}, {@code _STAGE} and {@code _SQL_EXECUTION}: the heap a
 * recorder fed 30 000 one-task SQL jobs ({@link LongRun}) retains with windows of 1 000, against the same with one
 * window 10 000 larger; the difference over 10 000 is what one more retained entity of that kind holds. Not a test:
 *
 * <pre>
 * mvn -o -q -pl heuristics-core/diagnosis -am test-compile
 * java -cp heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:heuristics-core/model/target/test-classes:heuristics-core/recording/target/test-classes:heuristics-core/diagnosis/target/test-classes:$(ls ~/.m2/repository/com/fasterxml/jackson/core/jackson-*&#47;2.18.6/*.jar | tr '\n' :) \
 *      io.sparkscope.core.recorder.WindowBytes
 * </pre>
 */
public final class WindowBytes {
    private static final int JOBS = 30_000;
    private static final int EXTRA = 10_000;

    public static void main(String[] args) {
        long base = retained(1000, 1000, 1000);
        System.out.printf("windows of 1 000: %.1f MB%n", base / 1e6);
        String[] kinds = {"job", "stage attempt", "SQL execution"};
        for (int k = 0; k < 3; k++) {
            long larger = retained(1000 + (k == 0 ? EXTRA : 0), 1000 + (k == 1 ? EXTRA : 0),
                    1000 + (k == 2 ? EXTRA : 0));
            System.out.printf("per retained %s: %.0f bytes%n", kinds[k], (double) (larger - base) / EXTRA);
        }
    }

    private static long retained(int jobs, int stages, int sql) {
        long before = MillionJobsTest.used(ManagementFactory.getMemoryMXBean(), null);
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withWindow(jobs, stages, sql));
        r.onEvent(LongRun.appStart());
        r.onEvent(LongRun.environment());
        LongRun run = new LongRun();
        for (int i = 0; i < JOBS; i++) {
            run.job(r, i, 1, false);
            if ((i + 1) % 500 == 0) {
                r.written(r.snapshots(false).changed().eventCount());
            }
        }
        return MillionJobsTest.used(ManagementFactory.getMemoryMXBean(), r) - before;
    }
}
