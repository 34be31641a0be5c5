package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/** On a shared YARN cluster the "default" queue competes with everyone. */
public final class YarnQueue implements Heuristic {
    public static final String ID = "YarnQueue";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return """
                master `yarn` and `spark.yarn.queue` unset or `default` → LOW, because the default queue competes
                with everyone.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        if (!conf.isYarn()) {
            return List.of();
        }
        String queue = conf.get("spark.yarn.queue", null);
        if (queue != null && !queue.equals("default") && !queue.equals("root.default")) {
            return List.of();
        }
        return List.of(Finding.builder(ID, Severity.LOW)
                .title("Submitted to YARN's default queue")
                .message(queue == null ? "spark.yarn.queue is not set, so the application ran in YARN's default queue."
                        : "The application ran in YARN's '" + queue + "' queue.")
                .recommendation("Submit to your team's queue with spark.yarn.queue=<queue> (now "
                        + (queue == null ? "default, Spark's default" : queue) + ") so the cluster's resource pools"
                        + " share capacity fairly.")
                .configKeys("spark.yarn.queue")
                .detail("queue", queue == null ? "unset" : queue)
                .build());
    }
}
