package io.sparkscope.core.analysis.timeline;

import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.ArrayList;
import java.util.List;

/**
 * How many tasks an executor can run at once, for the timeline's lanes.
 *
 * @param slots      {@code cores / spark.task.cpus}, 0 when the core count is unknown
 * @param addTime    epoch ms, or ≤ 0 when unknown
 * @param removeTime epoch ms, or ≤ 0 while alive
 */
public record ExecutorSlots(String executorId, String host, int slots, long addTime, long removeTime) {

    /**
     * Slots from the executor's reported cores, else (cluster executors) {@code spark.executor.cores}, else (the
     * driver of a local master) the N of {@code local[N]}; divided by {@code spark.task.cpus} (default 1).
     */
    public static int slots(String executorId, int totalCores, SparkSettings conf) {
        int cores = totalCores;
        boolean driver = "driver".equals(executorId);
        if (cores <= 0 && !driver) {
            cores = conf.integer("spark.executor.cores").orElse(0);
        }
        if (cores <= 0 && driver && conf.isLocal()) {
            cores = conf.localCores().orElse(0);
        }
        int taskCpus = Math.max(1, conf.integer("spark.task.cpus").orElse(1));
        return cores <= 0 ? 0 : Math.max(1, cores / taskCpus);
    }

    public static List<ExecutorSlots> of(List<ExecutorSummary> executors, AppConfig config) {
        SparkSettings conf = new SparkSettings(config);
        List<ExecutorSlots> out = new ArrayList<>(executors.size());
        for (ExecutorSummary e : executors) {
            out.add(new ExecutorSlots(e.executorId(), e.host(), slots(e.executorId(), e.totalCores(), conf),
                    e.addTime(), e.removeTime()));
        }
        return out;
    }

    boolean aliveDuring(long from, long to) {
        return (addTime <= 0 || addTime <= to) && (removeTime <= 0 || removeTime >= from);
    }
}
