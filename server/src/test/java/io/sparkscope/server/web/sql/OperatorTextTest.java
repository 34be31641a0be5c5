package io.sparkscope.server.web.sql;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spark's operator texts made short to read: what the operator table shows beside Spark's own (on hover). */
class OperatorTextTest {
    @Test
    void dropsExpressionAndPlanIdsPackagesAndHashes() {
        assertEquals("HashAggregate(keys=[value], functions=[merge_count(1)])",
                OperatorText.readable("HashAggregate(keys=[value#29], functions=[merge_count(1)])"));
        assertEquals("Exchange hashpartitioning(ss_item_sk, 200), ENSURE_REQUIREMENTS",
                OperatorText.readable("Exchange hashpartitioning(ss_item_sk#3L, 200), ENSURE_REQUIREMENTS, [plan_id=57]"));
        assertEquals("GpuColumnarToRow false", OperatorText.readable("GpuColumnarToRow false, [loreId=121]"));
        assertEquals("WriteToDataSourceV2 MicroBatchWrite", OperatorText.readable(
                "WriteToDataSourceV2 org.apache.spark.sql.execution.streaming.sources.MicroBatchWrite@27fafcca"));
        assertEquals("Scan parquet spark_catalog.default.store_sales",
                OperatorText.readable("Scan parquet spark_catalog.default.store_sales"), "a table name stays");
    }

    @Test
    void oneLineCutPastItsLength() {
        String s = OperatorText.readable("Project [" + "a_long_column_name, ".repeat(20) + "z]\n  more");
        assertEquals(OperatorText.MAX_CHARS, s.length());
        assertTrue(s.endsWith("…") && !s.contains("\n"));
        assertEquals("", OperatorText.readable(null));
    }
}
