package io.sparkscope.server.web.model;

import java.util.List;

/** The configuration a reader checks first: resources, dynamic allocation, serializer, SQL knobs, queue. */
public final class KeyConfig {
    public static final List<String> KEYS = List.of(
            "spark.master",
            "spark.executor.memory", "spark.executor.cores", "spark.executor.instances",
            "spark.executor.memoryOverhead", "spark.driver.memory", "spark.driver.cores",
            "spark.driver.memoryOverhead",
            "spark.dynamicAllocation.enabled", "spark.dynamicAllocation.minExecutors",
            "spark.dynamicAllocation.maxExecutors", "spark.dynamicAllocation.initialExecutors",
            "spark.dynamicAllocation.shuffleTracking.enabled", "spark.shuffle.service.enabled",
            "spark.serializer", "spark.sql.shuffle.partitions", "spark.sql.autoBroadcastJoinThreshold",
            "spark.sql.adaptive.enabled", "spark.yarn.queue");

    private KeyConfig() {
    }
}
