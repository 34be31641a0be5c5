package io.sparkscope.server.web.sql;

import io.sparkscope.server.LocalSparkApp;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;

import java.nio.file.Path;
import java.util.function.Consumer;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sum;

/**
 * Real Spark SQL applications in local mode that write event logs: joins (sort-merge, broadcast, a self-join that
 * reuses an exchange), aggregates, sorts and windows forced to spill, with AQE on and off, and a query that fails.
 */
public final class SqlWorkloads {
    private SqlWorkloads() {
    }

    /** Runs one application writing its event log into {@code logDir}; returns its application id. */
    public static String run(Path logDir, String name, boolean aqe, Consumer<SparkSession> workload) {
        SparkConf conf = LocalSparkApp.conf("local[2,2]", name, logDir)
                .set("spark.sql.shuffle.partitions", "6")
                .set("spark.sql.adaptive.enabled", String.valueOf(aqe))
                .set("spark.sql.adaptive.coalescePartitions.enabled", String.valueOf(aqe))
                // spill: sorts after 2 000 records, aggregates fall back to sorting (Spark's own test switches)
                .set("spark.shuffle.spill.numElementsForceSpillThreshold", "2000")
                .set("spark.sql.windowExec.buffer.spill.threshold", "500")
                .set("spark.sql.TungstenAggregate.testFallbackStartsAt", "200, 400");
        return LocalSparkApp.run(conf, workload);
    }

    /** Several queries of the shapes above; the first one's description carries user-controlled markup. */
    public static void queries(SparkSession spark) {
        spark.sparkContext().setJobDescription("<b>orders by customer</b> & \"totals\"");
        Dataset<Row> orders = spark.range(0, 60_000, 1, 4).withColumn("customer", col("id").mod(977))
                .withColumn("amount", col("id").mod(113));
        Dataset<Row> customers = spark.range(0, 977, 1, 2).withColumnRenamed("id", "customer")
                .withColumn("region", col("customer").mod(7));
        // a filter with "<": the plan text carries markup characters too
        orders.join(customers, "customer").filter(col("amount").lt(100)).groupBy("region").agg(sum("amount").as("total"), count(lit(1)))
                .collectAsList();
        spark.sparkContext().setJobDescription(null);
        // broadcast join and a sort that spills
        orders.join(broadcast(customers), "customer").orderBy(rand(7)).limit(10).collectAsList();
        // a self-join: the second scan reuses the first exchange
        Dataset<Row> byCustomer = orders.groupBy("customer").agg(sum("amount").as("s"));
        byCustomer.as("a").join(byCustomer.as("b"), col("a.customer").equalTo(col("b.customer").plus(1)))
                .count();
        // a window over sorted partitions, which spills its buffer
        orders.withColumn("rn", row_number().over(Window.partitionBy("customer").orderBy(col("amount").desc())))
                .filter(col("rn").equalTo(1)).count();
        // a sort with many records per task: the external sorter spills
        spark.range(0, 40_000, 1, 2).orderBy(col("id").desc()).selectExpr("sum(id)").collectAsList();
    }

    /** A query whose tasks fail: a failed execution. */
    public static void failing(SparkSession spark) {
        spark.udf().register("boom", (org.apache.spark.sql.api.java.UDF1<Long, Long>) x -> {
            if (x == 77) {
                throw new IllegalStateException("bad row " + x);
            }
            return x;
        }, org.apache.spark.sql.types.DataTypes.LongType);
        try {
            spark.range(0, 100, 1, 2).selectExpr("boom(id) as v").groupBy(col("v").mod(3)).count().collectAsList();
        } catch (Exception expected) {
            // the execution fails; Spark still logs its metrics
        }
        spark.range(0, 1000, 1, 2).selectExpr("sum(id)").collectAsList();
    }
}
