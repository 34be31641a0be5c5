package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Platform;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The memory failures of an application, failed task attempts and executor removals, by what ran short; and the one
 * reading of an error text as "out of memory" that the heuristics share ({@link #classify}, {@link #outOfMemory}).
 */
final class MemoryFailures {
    /** What ran short, read from an error text. */
    enum Shortage {
        HEAP, OVERHEAD, PYTHON, OFF_HEAP,
        /** The RAPIDS plugin's GPU memory: advice is about tasks per GPU and partition size, not a memory setting. */
        GPU
    }

    private final int[] counts = new int[Shortage.values().length];
    private final long[] lostMs = new long[Shortage.values().length];
    private final String[] examples = new String[Shortage.values().length];
    private final List<Set<String>> stages = new ArrayList<>();
    private final List<Set<String>> executors = new ArrayList<>();

    private MemoryFailures() {
        for (int i = 0; i < Shortage.values().length; i++) {
            stages.add(new LinkedHashSet<>());
            executors.add(new LinkedHashSet<>());
        }
    }

    /** @param pythonSeen Python workers were measured on some executor */
    static MemoryFailures of(AppSnapshot app, SparkSettings conf, boolean pythonSeen) {
        MemoryFailures f = new MemoryFailures();
        boolean python = pythonSeen || conf.platform().language() == Platform.Language.PYTHON
                || conf.isSet(MemorySizing.PYSPARK) || conf.isSet("spark.pyspark.python")
                || conf.get("spark.submit.pyFiles", "").contains(".py");
        Set<String> killedExecutors = new LinkedHashSet<>();
        for (ExecutorSummary e : app.executors()) {
            Shortage s = classify(e.removeReason(), python);
            if (s == Shortage.OVERHEAD || s == Shortage.PYTHON) {
                f.add(s, e.removeReason(), null, e.executorId(), 0);
                killedExecutors.add(e.executorId());
            }
        }
        for (StageSummary st : app.stages()) {
            for (TaskRecord t : st.keptTasks()) {
                if (!"FAILED".equals(t.status()) || t.errorMessage() == null) {
                    continue;
                }
                Shortage s = classify(t.errorMessage(), python);
                if (s == null || s == Shortage.GPU) { // no memory setting sizes a GPU's memory
                    continue;
                }
                if ((s == Shortage.OVERHEAD || s == Shortage.PYTHON) && killedExecutors.contains(t.executorId())) {
                    // the kill is already counted with its executor; the lost attempt adds only its time
                    f.lostMs[s.ordinal()] += t.durationMs();
                    f.stages.get(s.ordinal()).add(st.key());
                    continue;
                }
                f.add(s, t.errorMessage(), st.key(), t.executorId(), t.durationMs());
            }
        }
        return f;
    }

    private void add(Shortage s, String text, String stage, String executor, long ms) {
        int i = s.ordinal();
        counts[i]++;
        lostMs[i] += ms;
        if (examples[i] == null) {
            examples[i] = Facts.firstLines(text, 1, 200);
        }
        if (stage != null) {
            stages.get(i).add(stage);
        }
        if (executor != null) {
            executors.get(i).add(executor);
        }
    }

    /** Whether an error text says something ran out of memory (any {@link Shortage}). */
    static boolean outOfMemory(String text) {
        return classify(text, false) != null;
    }

    /**
     * What an error text says ran short, or null when it is no memory failure. An OutOfMemoryError for metaspace or
     * native threads is none: more memory per task or smaller partitions would not help.
     *
     * @param python whether the application runs Python workers (a crashed worker then counts as out of memory)
     */
    static Shortage classify(String text, boolean python) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String t = text.toLowerCase(Locale.ROOT);
        if (t.contains("gpu outofmemory") || t.contains("gpuoom") || t.contains("gpuretryoom")
                || t.contains("gpusplitandretryoom")) {
            return Shortage.GPU;
        }
        if (t.contains("memoryerror") && (t.contains("python") || t.contains("pyspark")) || python
                && (t.contains("python worker exited unexpectedly") || t.contains("python worker crashed"))) {
            return Shortage.PYTHON;
        }
        if (t.contains("exceeding memory limits") || t.contains("exceeding physical memory")
                || t.contains("memoryoverhead") || t.contains("oomkilled")
                || t.contains("exit code 137") || t.contains("exit code: 137") || t.contains("exit code is 137")
                || t.contains("exit status: 137") || t.contains("exited with code 137")
                || t.contains("direct buffer memory")) {
            return python && t.contains("python") ? Shortage.PYTHON : Shortage.OVERHEAD;
        }
        if (t.contains("unable to acquire") && t.contains("bytes of memory")) {
            return Shortage.OFF_HEAP; // execution memory; raiseHeap takes it when off-heap is not enabled
        }
        if (t.contains("java heap space") || t.contains("gc overhead limit exceeded")
                || t.contains("outofmemoryerror") && !t.contains("metaspace") && !t.contains("native thread")) {
            return Shortage.HEAP;
        }
        return null;
    }

    boolean has(Shortage s) {
        return counts[s.ordinal()] > 0;
    }

    boolean any() {
        for (int c : counts) {
            if (c > 0) {
                return true;
            }
        }
        return false;
    }

    int count(Shortage s) {
        return counts[s.ordinal()];
    }

    long lostTaskMs(Shortage s) {
        return lostMs[s.ordinal()];
    }

    String example(Shortage... kinds) {
        for (Shortage s : kinds) {
            if (examples[s.ordinal()] != null) {
                return examples[s.ordinal()];
            }
        }
        return "";
    }

    List<String> stages(Shortage s) {
        return List.copyOf(stages.get(s.ordinal()));
    }

    List<String> executors(Shortage s) {
        return List.copyOf(executors.get(s.ordinal()));
    }
}
