package io.sparkscope.server.web.sql;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Physical plans of any size, shaped like Spark's: joins of scans, each side in a whole-stage-codegen cluster (a
 * filter and a project over a scan, an aggregate), shuffle exchanges between them, a sort-merge join or a
 * broadcast hash join. Accumulator ids count up from {@code firstAccumulator}.
 */
public final class SyntheticPlans {
    private long nextAccumulator;
    private int nextCodegen = 1;
    private int operators;

    private SyntheticPlans(long firstAccumulator) {
        this.nextAccumulator = firstAccumulator;
    }

    /** A plan of about {@code operators} graph nodes (clusters included). */
    public static PlanNode plan(int operators, long firstAccumulator) {
        SyntheticPlans p = new SyntheticPlans(firstAccumulator);
        PlanNode root = p.side(0);
        while (p.operators < operators) {
            PlanNode other = p.side(p.operators);
            root = p.join(root, other);
        }
        return new PlanNode("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", List.of(root), List.of());
    }

    private List<PlanMetric> metrics(String... nameAndType) {
        List<PlanMetric> out = new ArrayList<>();
        for (int i = 0; i < nameAndType.length; i += 2) {
            out.add(new PlanMetric(nameAndType[i], nextAccumulator++, nameAndType[i + 1]));
        }
        return out;
    }

    private PlanNode node(String name, String simple, List<PlanNode> children, List<PlanMetric> metrics) {
        operators++;
        return new PlanNode(name, simple, children, metrics);
    }

    private PlanNode codegen(PlanNode inner) {
        operators++;
        int id = nextCodegen++;
        return new PlanNode("WholeStageCodegen (" + id + ")", "WholeStageCodegen (" + id + ")", List.of(inner),
                metrics("duration", "timing"));
    }

    private PlanNode side(int salt) {
        PlanNode scan = node("Scan parquet db.t" + salt, "FileScan parquet db.t" + salt + "[id#1,v#2]",
                List.of(), metrics("number of output rows", "sum", "number of files read", "sum",
                        "size of files read", "size", "scan time", "timing"));
        PlanNode colToRow = node("ColumnarToRow", "ColumnarToRow", List.of(scan),
                metrics("number of output rows", "sum", "number of input batches", "sum"));
        PlanNode filter = node("Filter", "Filter (isnotnull(id#1) AND (v#2 > " + salt + "))", List.of(colToRow),
                metrics("number of output rows", "sum"));
        PlanNode project = node("Project", "Project [id#1, v#2]", List.of(filter), List.of());
        PlanNode partial = node("HashAggregate", "HashAggregate(keys=[id#1], functions=[partial_sum(v#2)])",
                List.of(project), metrics("spill size", "size", "time in aggregation build", "timing",
                        "peak memory", "size", "number of output rows", "sum", "avg hash probes per key", "average"));
        PlanNode cg = codegen(partial);
        PlanNode exchange = node("Exchange", "Exchange hashpartitioning(id#1, 200), ENSURE_REQUIREMENTS, [plan_id="
                + salt + "]", List.of(cg), metrics("shuffle records written", "sum", "shuffle write time", "nsTiming",
                "records read", "sum", "local bytes read", "size", "fetch wait time", "timing", "remote bytes read",
                "size", "data size", "size", "number of partitions", "sum", "shuffle bytes written", "size"));
        PlanNode read = node("AQEShuffleRead", "AQEShuffleRead coalesced", List.of(exchange),
                metrics("number of partitions", "sum", "partition data size", "size", "number of coalesced partitions",
                        "sum"));
        PlanNode input = new PlanNode("InputAdapter", "InputAdapter", List.of(read), List.of());
        PlanNode sort = node("Sort", "Sort [id#1 ASC NULLS FIRST], false, 0", List.of(input),
                metrics("sort time", "timing", "peak memory", "size", "spill size", "size"));
        return codegen(sort);
    }

    private PlanNode join(PlanNode left, PlanNode right) {
        PlanNode smj = node("SortMergeJoin", "SortMergeJoin [id#1], [id#3], Inner", List.of(
                new PlanNode("InputAdapter", "InputAdapter", List.of(left), List.of()),
                new PlanNode("InputAdapter", "InputAdapter", List.of(right), List.of())),
                metrics("number of output rows", "sum", "spill size", "size"));
        PlanNode project = node("Project", "Project [id#1, v#2, v#4]", List.of(smj), List.of());
        return codegen(project);
    }
}
