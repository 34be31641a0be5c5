package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.RunSpecificConfig;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.StageRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Two or more runs side by side, aligned section by section. The first run is the baseline: a metric is marked
 * changed when it differs from the baseline's by more than {@link #THRESHOLD}; a config key is marked when its
 * values are not all equal (missing counts as a value), leaving out keys whose values every run makes anew
 * ({@link RunSpecificConfig}). Stages are matched by position — the n-th stage of the m-th job — because stage ids
 * shift between runs when an earlier job gains or loses stages; names are shown so a mismatch is visible.
 *
 * <p>Bounded whatever the runs hold: at most {@link #MAX_RUNS} runs, {@link #MAX_CONFIG_ROWS} differing keys and
 * {@link #MAX_STAGE_ROWS} stage positions (runs of 100 000 stages made a page no browser could show); what is left
 * out is counted.
 *
 * @param configNotShown    differing keys past {@link #MAX_CONFIG_ROWS}
 * @param runSpecificKeys   keys left out because every run has its own value (ids, hosts, ports)
 * @param stagesNotShown    stage positions past {@link #MAX_STAGE_ROWS}
 */
public record Comparison(List<AppHeader> apps, List<MetricRow> metrics, List<ConfigRow> config,
                         List<FindingRow> findings, List<StageMatch> stages, int configNotShown,
                         List<String> runSpecificKeys, int stagesNotShown) {
    public static final double THRESHOLD = 0.20;
    /** Most runs side by side: more columns no longer fit a page. */
    public static final int MAX_RUNS = 6;
    /** Most differing configuration keys listed besides the key settings. */
    public static final int MAX_CONFIG_ROWS = 300;
    /** Most stage positions listed: the first ones, in job and stage order. */
    public static final int MAX_STAGE_ROWS = 300;

    public enum Unit { MS, BYTES, COUNT }

    public record MetricRow(String name, Unit unit, List<Long> values, List<Boolean> changed) {
    }

    /** @param keySetting one of the key settings every comparison lists ({@link KeyConfig}), differing or not */
    public record ConfigRow(String key, List<String> values, boolean differs, boolean keySetting) {
    }

    public record FindingRow(String heuristic, List<String> severities) {
    }

    /** Stage cells are null where a run has no stage at that position. */
    public record StageMatch(String position, List<StageCell> cells, boolean namesDiffer) {
    }

    public record StageCell(String key, String name, long durationMs, int numTasks, int numFailedTasks,
                            long spillBytes, long shuffleBytes, boolean changed) {
    }

    private record Metric(String name, Unit unit, ToLongFunction<AppHeader> get) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("Duration", Unit.MS, AppHeader::durationMs),
            new Metric("Jobs", Unit.COUNT, h -> h.numJobs()),
            new Metric("Failed jobs", Unit.COUNT, h -> h.numFailedJobs()),
            new Metric("Stages", Unit.COUNT, h -> h.numStages()),
            new Metric("Failed stages", Unit.COUNT, h -> h.numFailedStages()),
            new Metric("Tasks", Unit.COUNT, AppHeader::numTasks),
            new Metric("Failed tasks", Unit.COUNT, AppHeader::numFailedTasks),
            new Metric("Executors", Unit.COUNT, h -> h.numExecutors()),
            new Metric("Total task time", Unit.MS, AppHeader::totalTaskTimeMs),
            new Metric("CPU time", Unit.MS, h -> h.totalCpuTimeNs() / 1_000_000),
            new Metric("GC time", Unit.MS, AppHeader::totalGcTimeMs),
            new Metric("Memory spill", Unit.BYTES, AppHeader::memoryBytesSpilled),
            new Metric("Disk spill", Unit.BYTES, AppHeader::diskBytesSpilled),
            new Metric("Shuffle read", Unit.BYTES, AppHeader::shuffleReadBytes),
            new Metric("Shuffle write", Unit.BYTES, AppHeader::shuffleWriteBytes),
            new Metric("Input", Unit.BYTES, AppHeader::inputBytes),
            new Metric("Output", Unit.BYTES, AppHeader::outputBytes));

    public static Comparison of(List<AppDetail> runs) {
        List<AppHeader> headers = runs.stream().map(AppDetail::header).toList();
        List<MetricRow> metrics = new ArrayList<>();
        for (Metric m : METRICS) {
            List<Long> values = headers.stream().map(m.get()::applyAsLong).toList();
            List<Boolean> changed = new ArrayList<>();
            for (long v : values) {
                changed.add(changed(values.get(0), v));
            }
            metrics.add(new MetricRow(m.name(), m.unit(), values, changed));
        }
        List<String> runSpecific = new ArrayList<>();
        List<ConfigRow> config = config(runs, runSpecific);
        int keyRows = KeyConfig.KEYS.size();
        int configNotShown = Math.max(0, config.size() - keyRows - MAX_CONFIG_ROWS);
        List<StageMatch> stages = stages(runs);
        int stagesNotShown = Math.max(0, stages.size() - MAX_STAGE_ROWS);
        return new Comparison(headers, metrics, List.copyOf(config.subList(0, config.size() - configNotShown)),
                findings(runs), List.copyOf(stages.subList(0, stages.size() - stagesNotShown)), configNotShown,
                runSpecific, stagesNotShown);
    }

    private static boolean changed(long base, long v) {
        if (base == v) {
            return false;
        }
        double denom = Math.max(Math.abs(base), 1);
        return Math.abs(v - base) / denom > THRESHOLD;
    }

    /**
     * Key configuration always (so the section reads the same for every comparison), then every differing key but
     * those each run makes anew, which go to {@code runSpecific}.
     */
    private static List<ConfigRow> config(List<AppDetail> runs, List<String> runSpecific) {
        TreeSet<String> keys = new TreeSet<>();
        for (AppDetail r : runs) {
            keys.addAll(r.sparkConfig().keySet());
        }
        List<ConfigRow> keyRows = new ArrayList<>();
        List<ConfigRow> others = new ArrayList<>();
        for (String k : KeyConfig.KEYS) {
            keyRows.add(row(runs, k, true));
        }
        for (String k : keys) {
            if (KeyConfig.KEYS.contains(k)) {
                continue;
            }
            ConfigRow row = row(runs, k, false);
            if (row.differs() && RunSpecificConfig.isRunSpecific(k)) {
                runSpecific.add(k);
            } else if (row.differs()) {
                others.add(row);
            }
        }
        List<ConfigRow> out = new ArrayList<>(keyRows);
        out.addAll(others);
        return out;
    }

    private static ConfigRow row(List<AppDetail> runs, String key, boolean keySetting) {
        List<String> values = new ArrayList<>();
        for (AppDetail r : runs) {
            values.add(r.sparkConfig().get(key));
        }
        boolean differs = values.stream().anyMatch(v -> !Objects.equals(v, values.get(0)));
        return new ConfigRow(key, values, differs, keySetting);
    }

    private static List<FindingRow> findings(List<AppDetail> runs) {
        Map<String, List<String>> byHeuristic = new TreeMap<>();
        for (int i = 0; i < runs.size(); i++) {
            for (Finding f : runs.get(i).findings()) {
                List<String> sev = byHeuristic.computeIfAbsent(f.heuristic(), k -> {
                    List<String> l = new ArrayList<>();
                    for (int j = 0; j < runs.size(); j++) {
                        l.add(null);
                    }
                    return l;
                });
                if (!"HIGH".equals(sev.get(i))) {
                    sev.set(i, f.severity().name());
                }
            }
        }
        List<FindingRow> out = new ArrayList<>();
        byHeuristic.forEach((h, s) -> out.add(new FindingRow(h, s)));
        return out;
    }

    /** Position "job m · stage n" (1-based, in job order then stage id order) of each run's final stage attempts. */
    private static Map<String, StageRow> positions(List<StageRow> stages) {
        Map<Integer, StageRow> lastAttempt = new TreeMap<>();
        for (StageRow s : stages) {
            StageRow prev = lastAttempt.get(s.stageId());
            if (prev == null || s.attemptId() > prev.attemptId()) {
                lastAttempt.put(s.stageId(), s);
            }
        }
        Map<Integer, List<StageRow>> byJob = new TreeMap<>();
        for (StageRow s : lastAttempt.values()) {
            int job = s.jobIds().isEmpty() ? Integer.MAX_VALUE : s.jobIds().stream().min(Integer::compare).get();
            byJob.computeIfAbsent(job, k -> new ArrayList<>()).add(s);
        }
        Map<String, StageRow> out = new LinkedHashMap<>();
        int jobPos = 0;
        for (List<StageRow> group : byJob.values()) {
            jobPos++;
            int stagePos = 0;
            for (StageRow s : group) {
                stagePos++;
                out.put(String.format("job %d · stage %d", jobPos, stagePos), s);
            }
        }
        return out;
    }

    private static List<StageMatch> stages(List<AppDetail> runs) {
        List<Map<String, StageRow>> pos = runs.stream().map(r -> positions(r.stages())).toList();
        List<String> order = new ArrayList<>();
        Map<String, Boolean> seen = new HashMap<>();
        for (Map<String, StageRow> p : pos) {
            for (String k : p.keySet()) {
                if (seen.putIfAbsent(k, true) == null) {
                    order.add(k);
                }
            }
        }
        order.sort(Comparison::comparePositions);
        List<StageMatch> out = new ArrayList<>();
        for (String k : order) {
            List<StageCell> cells = new ArrayList<>();
            StageRow base = pos.get(0).get(k);
            TreeSet<String> names = new TreeSet<>();
            for (Map<String, StageRow> p : pos) {
                StageRow s = p.get(k);
                if (s == null) {
                    cells.add(null);
                    continue;
                }
                names.add(String.valueOf(s.name()));
                boolean changed = base != null && changed(base.durationMs(), s.durationMs());
                cells.add(new StageCell(s.key(), s.name(), s.durationMs(), s.numTasks(), s.numFailedTasks(),
                        s.memoryBytesSpilled() + s.diskBytesSpilled(), s.shuffleReadBytes() + s.shuffleWriteBytes(),
                        changed));
            }
            out.add(new StageMatch(k, cells, names.size() > 1));
        }
        return out;
    }

    private static int comparePositions(String a, String b) {
        int[] x = nums(a);
        int[] y = nums(b);
        return x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]);
    }

    private static int[] nums(String p) {
        String[] parts = p.replace("job ", "").replace("stage ", "").split(" · ");
        return new int[]{Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    }
}
