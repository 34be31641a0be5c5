package io.sparkscope.core.eventlog;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.recorder.RecorderOptions;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.SnappyOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded fuzzing of the event-log reader and the recorder behind it: a few hundred mutations of a realistic log
 * this test writes itself (bit flips, truncation, reordered, duplicated and deleted lines, wrong JSON types, huge,
 * negative and NaN numbers, long strings, invalid UTF-8, wrong codec suffixes, damaged compressed files), each
 * read through {@link EventLogAnalysis} as {@code analyze} and {@code import} do.
 *
 * <p>Runs in its own JVM with {@code -Xmx256m} (a surefire execution of its own), so a case that would need more
 * memory fails here. For every case: nothing escapes, the case ends within its time guard, and the snapshot has
 * no NaN and no negative time, duration or total; and every value changed to one outside Spark's ranges was named
 * in a warning. The figures are printed at the end.
 */
class EventLogFuzzTest {
    private static final long SEED = 0x5eed_2026_1201L;
    private static final int CASES = 400;
    /** A hang guard, not a benchmark: a healthy case takes milliseconds, the biggest a few seconds. */
    private static final Duration PER_CASE = Duration.ofSeconds(60);

    /** Numeric fields the reader checks, each where it reads it (the same names elsewhere are skipped unread). */
    private static final List<String> CHECKED_FIELDS = List.of("Stage ID", "Stage Attempt ID", "Task ID", "Index",
            "Attempt", "Partition ID", "Launch Time", "Finish Time", "Getting Result Time", "Executor Run Time",
            "Executor CPU Time", "JVM GC Time", "Result Size", "Peak Execution Memory", "Remote Bytes Read",
            "Shuffle Bytes Written", "Bytes Read", "Records Written", "Number of Tasks", "Submission Time",
            "Completion Time", "Job ID", "Timestamp", "Total Cores", "Maximum Memory", "executionId", "time",
            "accumulatorId", "TotalGCTime");
    /** Values outside every checked field's range (0, -1 and null are some fields' "absent" and so left out). */
    private static final List<String> INVALID_VALUES = List.of("\"x\"", "\"12\"", "true", "{}", "[1]", "NaN",
            "Infinity", "-Infinity", "1.5", "-7", "99999999999999999999", "1e300", "-9223372036854775808");
    private static final List<String> HUGE_VALID = List.of("2147483647", "9223372036854775807", "4102444800000");

    @TempDir
    Path dir;

    private enum Kind {
        BIT_FLIPS, TRUNCATE, REORDER, DUPLICATE, DELETE, WRONG_TYPE, BAD_NUMBER, HUGE_VALID_NUMBER, LONG_STRING,
        INVALID_UTF8, WRONG_SUFFIX, COMPRESSED_DAMAGED, MANY_MUTATIONS, TOKEN_FLOOD
    }

    /** One mutated log and, for a value mutation, where the invalid value went. */
    private record Case(int number, Kind kind, Path file, int changedLine, String changedField) {
    }

    private static final class Figures {
        int cases;
        long warnings;
        int rejected;
        int valueMutations;
        final int[] byKind = new int[Kind.values().length];
        final List<String> failures = new ArrayList<>();
        /** Broken invariants of the recorder's sums, which the reader cannot prevent (see the disabled test). */
        final List<String> sumOverflows = new ArrayList<>();
    }

    @Test
    void mutatedLogsNeverCrashHangLeakOrGoNegative() throws Exception {
        Random random = new Random(SEED);
        Figures f = new Figures();
        List<String> base = RealisticLog.lines();
        for (int n = 0; n < CASES; n++) {
            Kind kind = Kind.values()[n % Kind.values().length];
            Case c = mutate(n, kind, base, random);
            f.cases++;
            f.byKind[kind.ordinal()]++;
            run(c, f);
        }
        // the 50 MB string under the 64 MiB line cap, once: it must fit a 256 MiB heap
        run(fiftyMegabyteString(), f);
        f.cases++;
        System.out.printf("event-log fuzz (seed %x, heap max " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB): %d cases, %d value mutations, %d warnings, %d rejected (no "
                        + "application), %d failures, %d recorder sum overflows; per kind %s%n", SEED, f.cases,
                f.valueMutations, f.warnings, f.rejected, f.failures.size(), f.sumOverflows.size(), kindsOf(f));
        assertEquals(List.of(), f.failures, f.failures.size() + " of " + f.cases + " cases failed");
        assertEquals(List.of(), f.sumOverflows);
        assertTrue(f.warnings > f.cases, "the mutations were noticed: " + f.warnings + " warnings");
        assertTrue(f.valueMutations >= CASES / Kind.values().length * 2 - 4, "value mutations: " + f.valueMutations);
    }

    /**
     * A metric value up to {@code Long.MAX_VALUE} is in Spark's range (the reader passes it); two of them added into
     * a stage or executor total must stay at the maximum instead of wrapping to a negative total.
     */
    @Test
    void hugeButValidMetricsNeverGiveANegativeTotal() throws Exception {
        Random random = new Random(SEED);
        Figures f = new Figures();
        for (int n = 0; n < 60; n++) {
            run(mutate(n, Kind.HUGE_VALID_NUMBER, RealisticLog.lines(), random), f);
        }
        assertEquals(List.of(), f.failures);
        assertEquals(List.of(), f.sumOverflows);
    }

    private static String kindsOf(Figures f) {
        StringBuilder sb = new StringBuilder();
        for (Kind k : Kind.values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(f.byKind[k.ordinal()]);
        }
        return sb.toString();
    }

    private void run(Case c, Figures f) {
        List<String> problems = new ArrayList<>();
        EventLogAnalysis.Result[] result = new EventLogAnalysis.Result[1];
        try {
            assertTimeoutPreemptively(PER_CASE, () -> {
                for (EventLogSource source : EventLogReader.discover(c.file(), problems::add)) {
                    result[0] = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, problems::add);
                }
            }, () -> "case " + c.number() + " (" + c.kind() + ") ran longer than " + PER_CASE);
        } catch (Throwable e) {
            f.failures.add("case " + c.number() + " " + c.kind() + ": " + e);
            return;
        } finally {
            deleteQuietly(c.file());
        }
        f.warnings += problems.size();
        for (String p : problems) {
            if (p.contains("\n") || p.contains("\tat ")) {
                f.failures.add("case " + c.number() + " " + c.kind() + ": a problem is not one line: " + p);
            }
        }
        if (c.changedField() != null) {
            f.valueMutations++;
            String expected = ":" + (c.changedLine() + 1) + ": ";
            boolean named = problems.stream().anyMatch(p -> p.contains(expected)
                    && (p.contains("field \"" + c.changedField() + "\"") || p.contains(" without ")));
            if (!named) {
                f.failures.add("case " + c.number() + " " + c.kind() + ": no warning for \"" + c.changedField()
                        + "\" on line " + (c.changedLine() + 1) + "; problems " + problems);
            }
        }
        if (result[0] == null || !result[0].hasApplication()) {
            f.rejected++;
            return;
        }
        for (String broken : invariants(result[0].snapshot())) {
            f.failures.add("case " + c.number() + " " + c.kind() + ": " + broken);
        }
        for (String broken : sums(result[0].snapshot())) {
            f.sumOverflows.add("case " + c.number() + " " + c.kind() + ": " + broken);
        }
    }

    /** The recorder's sums of metric values: non-negative unless valid but huge values overflow them. */
    static List<String> sums(AppSnapshot s) {
        List<String> broken = new ArrayList<>();
        for (StageSummary st : s.stages()) {
            for (TaskMetric m : TaskMetric.values()) {
                nonNegative(broken, "stage " + st.stageId() + "." + st.attemptId() + " total " + m, st.totals().get(m));
            }
        }
        for (ExecutorSummary e : s.executors()) {
            String at = "executor " + e.executorId();
            nonNegative(broken, at + " run time", e.totalRunTime());
            nonNegative(broken, at + " GC time", e.totalGcTime());
            nonNegative(broken, at + " input", e.inputBytes());
            nonNegative(broken, at + " shuffle read", e.shuffleReadBytes());
        }
        return broken;
    }

    /**
     * What must hold of any snapshot, whatever its log held, given the reader's checks: every time, duration and
     * time difference, every quantile, every kept task, core count and executor peak.
     */
    static List<String> invariants(AppSnapshot s) {
        List<String> broken = new ArrayList<>();
        pair(broken, "application", s.startTime(), s.endTime());
        nonNegative(broken, "application duration", s.durationMs());
        for (StageSummary st : s.stages()) {
            String at = "stage " + st.stageId() + "." + st.attemptId();
            pair(broken, at + " submission/completion", st.submissionTime(), st.completionTime());
            pair(broken, at + " first launch/last finish", st.firstTaskLaunchedTime(), st.lastTaskFinishedTime());
            if (st.taskTimes() != null) {
                nonNegative(broken, at + " task duration sum", st.taskTimes().durationMs());
                nonNegative(broken, at + " scheduler delay sum", st.taskTimes().schedulerDelayMs());
                nonNegative(broken, at + " getting-result sum", st.taskTimes().gettingResultMs());
            }
            TaskDistributions d = st.taskSummary();
            if (d != null) {
                for (DistributionMetric m : DistributionMetric.values()) {
                    for (double v : d.values(m)) {
                        if (Double.isNaN(v) || v < 0 || Double.isInfinite(v)) {
                            broken.add(at + " quantile of " + m + " is " + v);
                        }
                    }
                }
            }
            for (TaskRecord t : st.keptTasks()) {
                String task = at + " task " + t.taskId();
                nonNegative(broken, task + " duration", t.durationMs());
                if (t.finishTime() > 0) {
                    pair(broken, task + " launch/finish", t.launchTime(), t.finishTime());
                    if (t.gettingResultTime() > 0 && (t.gettingResultTime() > t.finishTime()
                            || t.gettingResultTime() < t.launchTime())) {
                        broken.add(task + " getting-result time " + t.gettingResultTime() + " outside its run");
                    }
                }
                if (t.index() < 0 || t.attempt() < 0 || t.taskId() < 0) {
                    broken.add(task + " has index " + t.index() + ", attempt " + t.attempt());
                }
            }
        }
        for (ExecutorSummary e : s.executors()) {
            String at = "executor " + e.executorId();
            pair(broken, at + " add/remove", e.addTime(), e.removeTime());
            nonNegative(broken, at + " total duration", e.totalDuration());
            if (e.totalCores() < 0 || e.totalCores() > TreeDecoders.MAX_EXECUTOR_CORES) {
                broken.add(at + " has " + e.totalCores() + " cores");
            }
            e.peakMetrics().forEach((k, v) -> nonNegative(broken, at + " peak " + k, v));
        }
        for (JobSummary j : s.jobs()) {
            pair(broken, "job " + j.jobId(), j.submissionTime(), j.completionTime());
            nonNegative(broken, "job " + j.jobId() + " duration", j.durationMs());
        }
        for (SqlExecutionSummary q : s.sqlExecutions()) {
            pair(broken, "SQL execution " + q.executionId(), q.startTime(), q.endTime());
        }
        return broken;
    }

    private static void pair(List<String> broken, String what, long start, long end) {
        if (start > 0 && end > 0 && end < start) {
            broken.add(what + ": end " + end + " before start " + start);
        }
    }

    private static void nonNegative(List<String> broken, String what, long value) {
        if (value < 0) {
            broken.add(what + " is negative: " + value);
        }
    }

    // ---- mutations ----

    private Case mutate(int n, Kind kind, List<String> base, Random r) throws IOException {
        List<String> lines = new ArrayList<>(base);
        String name = RealisticLog.APP_ID + "_" + n;
        switch (kind) {
            case BIT_FLIPS -> {
                byte[] bytes = join(lines);
                int flips = 1 + r.nextInt(16);
                for (int i = 0; i < flips; i++) {
                    bytes[r.nextInt(bytes.length)] ^= (byte) (1 << r.nextInt(8));
                }
                return new Case(n, kind, Files.write(dir.resolve(name), bytes), -1, null);
            }
            case TRUNCATE -> {
                byte[] bytes = join(lines);
                return new Case(n, kind, Files.write(dir.resolve(name), Arrays.copyOf(bytes, r.nextInt(bytes.length))),
                        -1, null);
            }
            case REORDER -> {
                int swaps = 1 + r.nextInt(6);
                for (int i = 0; i < swaps; i++) {
                    Collections.swap(lines, r.nextInt(lines.size()), r.nextInt(lines.size()));
                }
                if (r.nextInt(4) == 0) {
                    int from = r.nextInt(lines.size() - 5);
                    Collections.shuffle(lines.subList(from, from + 5), r);
                }
            }
            case DUPLICATE -> {
                int copies = 1 + r.nextInt(8);
                for (int i = 0; i < copies; i++) {
                    int at = r.nextInt(lines.size());
                    lines.add(r.nextInt(lines.size() + 1), lines.get(at));
                }
            }
            case DELETE -> {
                int deletions = 1 + r.nextInt(8);
                for (int i = 0; i < deletions && lines.size() > 1; i++) {
                    lines.remove(r.nextInt(lines.size()));
                }
            }
            case WRONG_TYPE, BAD_NUMBER -> {
                String value = kind == Kind.WRONG_TYPE ? pick(r, INVALID_VALUES.subList(0, 5))
                        : pick(r, INVALID_VALUES.subList(5, INVALID_VALUES.size()));
                int[] where = new int[1];
                String field = replaceValue(lines, r, value, where);
                return new Case(n, kind, TestLogs.write(dir.resolve(name), lines), where[0], field);
            }
            case HUGE_VALID_NUMBER -> replaceValue(lines, r, pick(r, HUGE_VALID), new int[1]);
            case LONG_STRING -> {
                int at = r.nextInt(lines.size());
                String filler = "s".repeat(1 << 20).repeat(1 + r.nextInt(3));
                lines.set(at, lines.get(at).replaceFirst("\"(App Name|Stage Name|Details|description|Host|Locality|"
                        + "physicalPlanDescription|user.name|Executor ID)\":\"", "\"$1\":\"" + filler));
            }
            case INVALID_UTF8 -> {
                byte[] bytes = join(lines);
                int bad = 1 + r.nextInt(4);
                for (int i = 0; i < bad; i++) {
                    int at = r.nextInt(bytes.length);
                    // only inside a string value, where Spark's text would be
                    while (at < bytes.length - 1 && bytes[at] != '"') {
                        at++;
                    }
                    if (at + 2 < bytes.length) {
                        bytes[at + 1] = (byte) (0x80 | r.nextInt(0x40));
                    }
                }
                return new Case(n, kind, Files.write(dir.resolve(name), bytes), -1, null);
            }
            case WRONG_SUFFIX -> {
                byte[] plain = join(lines);
                int which = r.nextInt(4);
                byte[] bytes = which == 0 ? plain : compress(plain, which);
                String[] suffixes = {".zstd", ".lz4", ".snappy", "", ".lzf", ".gz"};
                String suffix = suffixes[r.nextInt(suffixes.length)];
                return new Case(n, kind, Files.write(dir.resolve(name + suffix), bytes), -1, null);
            }
            case COMPRESSED_DAMAGED -> {
                int which = 1 + r.nextInt(3);
                byte[] bytes = compress(join(lines), which);
                if (r.nextBoolean()) {
                    bytes = Arrays.copyOf(bytes, 1 + r.nextInt(bytes.length));
                } else {
                    for (int i = 0; i < 1 + r.nextInt(8); i++) {
                        bytes[r.nextInt(bytes.length)] ^= (byte) (1 << r.nextInt(8));
                    }
                }
                String suffix = which == 1 ? ".zstd" : which == 2 ? ".lz4" : ".snappy";
                return new Case(n, kind, Files.write(dir.resolve(name + suffix), bytes), -1, null);
            }
            case MANY_MUTATIONS -> {
                for (int i = 0; i < 10; i++) {
                    switch (r.nextInt(4)) {
                        case 0 -> replaceValue(lines, r, pick(r, INVALID_VALUES), new int[1]);
                        case 1 -> lines.remove(r.nextInt(lines.size()));
                        case 2 -> lines.add(r.nextInt(lines.size()), lines.get(r.nextInt(lines.size())));
                        default -> Collections.swap(lines, r.nextInt(lines.size()), r.nextInt(lines.size()));
                    }
                }
            }
            case TOKEN_FLOOD -> {
                // a few MB of empty objects in an event decoded as a tree: small as bytes, huge as a tree
                int at = indexOf(lines, "SparkListenerSQLExecutionStart");
                String flood = "[" + "{},".repeat(1_500_000 + r.nextInt(500_000)) + "{}]";
                lines.set(at, lines.get(at).replace("\"modifiedConfigs\":{}", "\"modifiedConfigs\":" + flood));
            }
            default -> throw new AssertionError(kind);
        }
        return new Case(n, kind, TestLogs.write(dir.resolve(name), lines), -1, null);
    }

    private Case fiftyMegabyteString() throws IOException {
        List<String> lines = new ArrayList<>(RealisticLog.lines());
        int at = indexOf(lines, "SparkListenerSQLExecutionStart");
        Path file = dir.resolve(RealisticLog.APP_ID + "_big");
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (i == at) {
                    int cut = line.indexOf("\"physicalPlanDescription\":\"") + "\"physicalPlanDescription\":\"".length();
                    out.write(line.substring(0, cut).getBytes(StandardCharsets.UTF_8));
                    byte[] chunk = "+- Scan parquet db.sales [day#1,amount#2] ".repeat(10_000)
                            .getBytes(StandardCharsets.UTF_8);
                    for (long written = 0; written < (50L << 20); written += chunk.length) {
                        out.write(chunk);
                    }
                    out.write(line.substring(cut).getBytes(StandardCharsets.UTF_8));
                } else {
                    out.write(line.getBytes(StandardCharsets.UTF_8));
                }
                out.write('\n');
            }
        }
        return new Case(CASES, Kind.LONG_STRING, file, -1, null);
    }

    private static final Pattern NUMBER_FIELD = Pattern.compile("\"([A-Za-z][A-Za-z ]*)\":(-?\\d+)");

    /**
     * Replaces the value of one checked numeric field in a random line (where the reader reads it) with
     * {@code value}; returns the field's name, or null when the line drawn had none.
     */
    private static String replaceValue(List<String> lines, Random r, String value, int[] where) {
        for (int attempt = 0; attempt < 50; attempt++) {
            int at = r.nextInt(lines.size());
            String line = lines.get(at);
            List<int[]> spots = new ArrayList<>();
            List<String> names = new ArrayList<>();
            Matcher m = NUMBER_FIELD.matcher(line);
            while (m.find()) {
                if (CHECKED_FIELDS.contains(m.group(1)) && readWhereItIs(line, m.start(), m.group(1))) {
                    spots.add(new int[]{m.start(2), m.end(2)});
                    names.add(m.group(1));
                }
            }
            if (spots.isEmpty()) {
                continue;
            }
            int i = r.nextInt(spots.size());
            int[] spot = spots.get(i);
            lines.set(at, line.substring(0, spot[0]) + value + line.substring(spot[1]));
            where[0] = at;
            return names.get(i);
        }
        return null;
    }

    /** Whether the reader reads the field at this place (not inside a part of the event it skips unread). */
    private static boolean readWhereItIs(String line, int pos, String field) {
        String before = line.substring(0, pos);
        if (before.contains("\"RDD Info\":[") && before.lastIndexOf("\"RDD Info\":[") > before.lastIndexOf("}]")) {
            return false; // inside an RDD Info, which the reader skips
        }
        if (line.contains("SparkListenerTaskEnd") && before.contains("\"Task Executor Metrics\"")
                && !before.contains("\"Task Metrics\"")) {
            return false;
        }
        if (field.equals("TotalGCTime")) {
            return line.contains("SparkListenerStageExecutorMetrics");
        }
        if (field.equals("time")) {
            return line.contains("SQLExecution");
        }
        if (field.equals("Timestamp") || field.equals("Maximum Memory")) {
            return !before.contains("\"Block Manager ID\":{") || before.contains("}");
        }
        return !before.contains("\"Accumulables\":[{") || before.lastIndexOf("}]") > before.lastIndexOf(
                "\"Accumulables\":[{");
    }

    private static int indexOf(List<String> lines, String fragment) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(fragment)) {
                return i;
            }
        }
        throw new AssertionError(fragment);
    }

    private static <T> T pick(Random r, List<T> list) {
        return list.get(r.nextInt(list.size()));
    }

    private static byte[] join(List<String> lines) {
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** 1 zstd, 2 lz4, 3 snappy, as Spark writes them. */
    private static byte[] compress(byte[] plain, int which) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = which == 1 ? new ZstdOutputStream(bytes)
                : which == 2 ? new LZ4BlockOutputStream(bytes, 32 * 1024) : new SnappyOutputStream(bytes, 32 * 1024)) {
            out.write(plain);
        }
        return bytes.toByteArray();
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // the temporary directory goes at the end anyway
        }
    }
}
