package io.sparkscope.core.model;

import java.util.List;

/**
 * One SQL metric of a SQL execution, aggregated the way Spark's SQL tab aggregates it ({@code SQLAppStatusListener}):
 * per stage (its latest attempt) one value per task index, the last one a task of that index reported until an
 * attempt of it succeeded, 0 for indices that reported none; the values of all the execution's stages that reported
 * the metric and the driver's own updates make one population. Spark shows the sum of a {@code sum} metric and
 * "total (min, med, max)" of the others; the statistics are kept for every type.
 *
 * @param metricType        Spark's type: {@code sum}, {@code size}, {@code timing} (ms), {@code nsTiming} (ns),
 *                          {@code average} (tenths), or {@code v2Custom_<class>} for a data source's own metric
 * @param total             what Spark sums: every value for a {@code sum} metric, the population below otherwise
 * @param count             the population Spark takes min, median and max of: the values ≥ 0 ({@code average}: > 0)
 * @param min               smallest value of the population (0 when it is empty)
 * @param median            Spark's median: the value at index {@code count / 2} of the sorted population
 * @param lowerMedian       the value at index {@code (count - 1) / 2} (equal to {@code median} for an odd count), so
 *                          that a median averaging the two middle values can be had too
 * @param max               largest value of the population
 * @param maxStageId        the stage of the task that reported the largest value, as Spark names it; -1 when Spark
 *                          names the driver instead ("(driver)": only driver values, or the driver's were larger)
 * @param maxStageAttemptId that stage's attempt, -1 with the driver
 * @param maxTaskId         that task, -1 with the driver
 * @param reportedValues    values that tasks or the driver reported; the rest of {@code count} are the zeros of task
 *                          indices that reported none
 * @param exact             false when {@code median} and {@code lowerMedian} are estimates, within 1 % of the value:
 *                          the execution held more task values than the recorder keeps one by one
 * @param stageIds          stages whose tasks updated the metric or whose accumulables listed it, ascending: where
 *                          the operator declaring it ran
 */
public record SqlMetricAggregate(
        long accumulatorId,
        String metricType,
        long total,
        long count,
        long min,
        long median,
        long lowerMedian,
        long max,
        int maxStageId,
        int maxStageAttemptId,
        long maxTaskId,
        long reportedValues,
        boolean exact,
        List<Integer> stageIds) {

    public SqlMetricAggregate {
        metricType = metricType == null ? "" : metricType;
        stageIds = stageIds == null ? List.of() : List.copyOf(stageIds);
    }

    /** True when Spark names the driver as where the largest value came from. */
    public boolean maxFromDriver() {
        return maxStageId < 0;
    }

    /**
     * A builder with every value at its default (empty lists and maps, 0, -1 for times and counts that read -1 as
     * unknown, null where the record allows it), so a caller sets only what it knows and a value added later
     * changes no caller.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's values, to build a copy with a few of them changed. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.accumulatorId = accumulatorId;
        b.metricType = metricType;
        b.total = total;
        b.count = count;
        b.min = min;
        b.median = median;
        b.lowerMedian = lowerMedian;
        b.max = max;
        b.maxStageId = maxStageId;
        b.maxStageAttemptId = maxStageAttemptId;
        b.maxTaskId = maxTaskId;
        b.reportedValues = reportedValues;
        b.exact = exact;
        b.stageIds = stageIds;
        return b;
    }

    /** Builds a {@link SqlMetricAggregate}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private long accumulatorId;
        private String metricType = "";
        private long total;
        private long count;
        private long min;
        private long median;
        private long lowerMedian;
        private long max;
        private int maxStageId;
        private int maxStageAttemptId;
        private long maxTaskId;
        private long reportedValues;
        private boolean exact;
        private List<Integer> stageIds = List.of();

        private Builder() {
        }

        public Builder accumulatorId(long accumulatorId) {
            this.accumulatorId = accumulatorId;
            return this;
        }

        public Builder metricType(String metricType) {
            this.metricType = metricType;
            return this;
        }

        public Builder total(long total) {
            this.total = total;
            return this;
        }

        public Builder count(long count) {
            this.count = count;
            return this;
        }

        public Builder min(long min) {
            this.min = min;
            return this;
        }

        public Builder median(long median) {
            this.median = median;
            return this;
        }

        public Builder lowerMedian(long lowerMedian) {
            this.lowerMedian = lowerMedian;
            return this;
        }

        public Builder max(long max) {
            this.max = max;
            return this;
        }

        public Builder maxStageId(int maxStageId) {
            this.maxStageId = maxStageId;
            return this;
        }

        public Builder maxStageAttemptId(int maxStageAttemptId) {
            this.maxStageAttemptId = maxStageAttemptId;
            return this;
        }

        public Builder maxTaskId(long maxTaskId) {
            this.maxTaskId = maxTaskId;
            return this;
        }

        public Builder reportedValues(long reportedValues) {
            this.reportedValues = reportedValues;
            return this;
        }

        public Builder exact(boolean exact) {
            this.exact = exact;
            return this;
        }

        public Builder stageIds(List<Integer> stageIds) {
            this.stageIds = stageIds;
            return this;
        }

        public SqlMetricAggregate build() {
            return new SqlMetricAggregate(accumulatorId, metricType, total, count, min, median, lowerMedian, max,
                    maxStageId, maxStageAttemptId, maxTaskId, reportedValues, exact, stageIds);
        }
    }
}
