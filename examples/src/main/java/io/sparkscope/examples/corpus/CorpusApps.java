package io.sparkscope.examples.corpus;

import io.sparkscope.examples.jobs.CleanJob;
import io.sparkscope.examples.jobs.FailingStage;
import io.sparkscope.examples.jobs.FlakyTasks;
import io.sparkscope.examples.jobs.GcPressure;
import io.sparkscope.examples.jobs.JavaSerializer;
import io.sparkscope.examples.jobs.KryoSerializer;
import io.sparkscope.examples.jobs.SkewedJoin;
import io.sparkscope.examples.jobs.JobContext;
import io.sparkscope.examples.jobs.TinyTasks;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import scala.Tuple2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

/**
 * The diagnosis corpus: one short app per named problem, plus clean references and a few mixes of two problems.
 * Data is scaled to the least that still shows the problem, so that the whole corpus runs in minutes. The apps
 * only run; what Sparkscope should say about each is in its label file. Apps whose remedy is a change of code (or of
 * a setting the app chose itself) also carry a fixed variant, so that a finding's promised saving can be checked by
 * running both ({@code AdviceRerun}).
 */
public final class CorpusApps {
    private static final Map<String, CorpusApp> APPS = new LinkedHashMap<>();

    /** Sub-keys a hot key is salted over in the fixed skew apps: one per shuffle partition. */
    private static final int SALTS = 8;

    /**
     * Records of the skewed aggregation and the digest rounds each costs: on a quiet 2-core machine the hot key's
     * task runs about 7 s, well above the 2 s a stage needs to be judged for skew, the rest of the stage well under 1 s.
     */
    private static final int SKEWED_RECORDS = 400_000;
    private static final int DIGEST_ROUNDS = 250;

    /**
     * Rows of the input the repeated-read apps scan and filter four times, and the filter: a check that costs CPU on
     * every row (as a parsing or matching UDF does), so each uncached query takes about 2 s on a quiet machine,
     * against about 2 s for writing the input once.
     */
    private static final long REPEATED_ROWS = 1_000_000;
    private static final String REPEATED_FILTER = hashed("h", 2) + " LIKE '%ab%'";

    /**
     * The partitioned-full-scan query: one customer's orders, or any order whose note a costly per-row check flags
     * (none is: hex digits hold no 'z'), so every row the scan returns costs CPU and the scan is most of the run.
     */
    private static final String FLAGGED = "(customer = 42 OR " + hashed("note", 8) + " LIKE '%zz%')";

    /**
     * Set to true (as DiagnosisFloorTest does) to run the apps the floor test runs at their former, smaller size: a
     * few seconds each instead of about ten, which still shows their problem but leaves a fix's saving within the
     * noise of a rerun.
     */
    public static final String QUICK_PROPERTY = "sparkscope.corpus.quick";

    /**
     * Rows of apps sized so that their problem is most of a run of about 8–12 s on a quiet 2-core machine, so that the
     * advice rerun can tell a fix's saving from noise.
     */
    private static final long COALESCED_ROWS = 3_600_000;
    private static final long[] CSV_ROWS = {900_000, 300_000};
    private static final long[] JSON_ROWS = {800_000, 200_000};
    private static final long[] JOIN_ROWS = {3_000_000, 600_000};
    /**
     * Rows of skew-and-spill: at full size the hot key's sorting task runs several seconds, long enough for its stage
     * to be judged for skew (2 s and a straggler of 1 s at least); the quick size ran about a second in all.
     */
    private static final long[] SKEW_SPILL_ROWS = {4_000_000, 500_000};
    /**
     * Rows of spilling-sort: the demo's 600 000 sorted in under a second, too short to tell a fix from noise. At full
     * size, with its payload of random digits (which the spill's compression cannot shrink), the sort spills about
     * 1 GiB: seconds of writing and reading back that the advised memory saves.
     */
    private static final long[] SORT_ROWS = {8_000_000, 600_000};

    /**
     * The master of the apps whose executors must be held apart from the driver: two executors of one core and 1 GiB
     * each, each in a JVM of its own, as on a cluster (in local mode the driver is the executor, and idle cores are
     * the user's own). Spark starts those JVMs from a Spark home ({@code SPARK_HOME}, with {@code RELEASE} and
     * {@code jars/}): bench/spark-home.sh makes one from the examples' own jars.
     */
    static final String LOCAL_CLUSTER = "local-cluster[2,1,1024]";

    /** The columns the schema-inference apps write, given up front by their fixed variants. */
    private static final String NUMBERS_SCHEMA = "id BIGINT, x DOUBLE, s STRING";

    static {
        // Clean references: Sparkscope should put nothing serious first.
        add(CorpusApp.reuse(new CleanJob()));
        add(CorpusApp.of("clean-narrow-etl", "clean: filter and project, written as parquet, 2 tasks per core",
                c -> c, (spark, ctx) -> spark.range(0, 400_000, 1, 4)
                        .selectExpr("id", "id % 7 AS shop", "concat('sku-', id % 5000) AS sku", "(id % 89) * 0.5 AS price")
                        .where("price > 3")
                        .write().mode("overwrite").parquet(ctx.workDir().resolve("clean-etl").toString())));
        add(CorpusApp.of("clean-sql-query", "clean: a SQL aggregate over a view with a broadcast dimension, AQE on",
                c -> c.set("spark.sql.adaptive.enabled", "true").set("spark.sql.shuffle.partitions", "4"),
                (spark, ctx) -> {
                    spark.range(0, 300_000, 1, 4).selectExpr("id", "id % 500 AS item", "id % 13 AS qty")
                            .createOrReplaceTempView("orders");
                    spark.range(0, 500, 1, 1).selectExpr("id AS item", "concat('group-', id % 10) AS grp")
                            .createOrReplaceTempView("items");
                    spark.sql("SELECT /*+ BROADCAST(i) */ i.grp, sum(o.qty) AS q FROM orders o JOIN items i "
                            + "ON o.item = i.item GROUP BY i.grp ORDER BY q DESC").collectAsList();
                }));
        add(CorpusApp.reuse(new KryoSerializer()));

        // Skew
        add(CorpusApp.reuse(new SkewedJoin()).fixedBy("the hot key salted over 8 sub-keys, the dimension copied "
                + "once per salt", c -> c.set("spark.sql.autoBroadcastJoinThreshold", "-1"), (spark, ctx) -> {
                    Dataset<Row> facts = spark.range(0, 400_000, 1, 8)
                            .withColumn("key", when(col("id").mod(10).lt(9), lit(0)).otherwise(col("id").mod(1000)))
                            .withColumn("salt", col("id").mod(SALTS));
                    Dataset<Row> dims = spark.range(0, 1_179, 1, 2)
                            .withColumn("key", when(col("id").lt(1000), col("id")).otherwise(lit(0)))
                            .withColumn("label", col("key").cast("string")).drop("id")
                            .crossJoin(spark.range(0, SALTS, 1, 1).withColumnRenamed("id", "salt"));
                    facts.join(dims, facts.col("key").equalTo(dims.col("key"))
                                    .and(facts.col("salt").equalTo(dims.col("salt"))))
                            .groupBy("label").count().collectAsList();
                    // the job's small follow-up, its transient failure kept: only the skew is fixed here
                    JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(List.of(1, 2, 3, 4), 4)
                            .map(x -> {
                                TaskContext tc = TaskContext.get();
                                if (tc.partitionId() == 2 && tc.attemptNumber() == 0) {
                                    throw new IllegalStateException("transient failure on first attempt");
                                }
                                return x;
                            }).collect();
                }));
        add(CorpusApp.of("skewed-aggregation", "groupByKey where one key holds 90 % of the records",
                c -> c, (spark, ctx) -> {
                    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
                    List<Integer> ids = numbers(SKEWED_RECORDS);
                    // groupByKey does no map-side combining: the hot key's whole group lands in one task
                    jsc.parallelize(ids, 8).mapToPair(i -> new Tuple2<>(i % 10 < 9 ? 0 : i % 500, i))
                            .groupByKey(8).mapValues(CorpusApps::digestAll).count();
                }).fixedBy("the hot key salted over 8 sub-keys, each sub-group digested apart", (spark, ctx) -> {
                    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
                    List<Integer> ids = numbers(SKEWED_RECORDS);
                    jsc.parallelize(ids, 8)
                            .mapToPair(i -> new Tuple2<>((i % 10 < 9 ? 0 : i % 500) * SALTS + i % SALTS, i))
                            .groupByKey(8).mapValues(CorpusApps::digestAll).count();
                }));

        // Spill
        // The demo's spilling sort, sized up and short of memory for real: about 48 MiB of execution memory (no
        // forced spill threshold, which no memory setting could lift), so the advised memory is a fix that can work.
        add(CorpusApp.of("spilling-sort", "a global sort with too little execution memory",
                c -> c.set("spark.memory.fraction", smallMemoryFraction()).set("spark.sql.shuffle.partitions", "4"),
                CorpusApps::globalSort).fixedBy("the same sort with Spark's default execution memory",
                c -> c.set("spark.sql.shuffle.partitions", "4"), CorpusApps::globalSort));
        add(CorpusApp.of("spill-aggregate", "a collect_list aggregate over many keys with little execution memory",
                c -> c.set("spark.memory.fraction", smallMemoryFraction()).set("spark.sql.shuffle.partitions", "4"),
                (spark, ctx) -> spillAggregate(spark, 4)).fixedBy(
                "the same aggregate over 64 partitions, each small enough to fit in the same memory",
                c -> c.set("spark.memory.fraction", smallMemoryFraction()).set("spark.sql.shuffle.partitions", "64"),
                (spark, ctx) -> spillAggregate(spark, 64)));

        // Parallelism
        add(CorpusApp.of("too-few-partitions", "CPU-heavy work in one partition while the other core idles",
                c -> c, (spark, ctx) -> distinctPrefixes(spark, 1)).fixedBy("4 partitions instead of 1",
                (spark, ctx) -> distinctPrefixes(spark, 4)));
        add(CorpusApp.of("coalesce-one", "coalesce(1) before heavy work: one task does everything",
                c -> c, (spark, ctx) -> hashAndWrite(spark.range(0, COALESCED_ROWS, 1, 8).coalesce(1), ctx))
                .fixedBy("without coalesce(1): the 8 input partitions hashed in parallel",
                        (spark, ctx) -> hashAndWrite(spark.range(0, COALESCED_ROWS, 1, 8), ctx)));
        // On as many threads as the machine has cores (two), so the idle core is real and the fix can use it:
        // repartition(2) on four threads of a two-core machine left no core idle.
        add(CorpusApp.of("repartition-two", "repartition(1) on 2 cores before the heavy part of the run",
                c -> c, (spark, ctx) -> hashPrefixes(spark, 1))
                .fixedBy("repartition(4), two partitions per core, instead of repartition(1)",
                        (spark, ctx) -> hashPrefixes(spark, 4)));
        add(CorpusApp.reuse(new TinyTasks()).fixedBy("4 partitions instead of 5 200", c -> c,
                (spark, ctx) -> spark.range(0, 52_000, 1, 4).selectExpr("id * 2 AS x").javaRDD().count()));
        add(CorpusApp.of("too-many-shuffle-partitions", "a small aggregate over 2 000 shuffle partitions",
                c -> c.set("spark.sql.shuffle.partitions", "2000"), CorpusApps::smallAggregate)
                .fixedBy("spark.sql.shuffle.partitions=4 instead of 2000",
                        c -> c.set("spark.sql.shuffle.partitions", "4"), CorpusApps::smallAggregate));

        // Failures
        add(CorpusApp.reuse(new FlakyTasks()).fixedBy("the lookup that timed out fixed: no task fails", c -> c,
                (spark, ctx) -> JavaSparkContext.fromSparkContext(spark.sparkContext())
                        .parallelize(numbers(2_000), 20).map(x -> {
                            Thread.sleep(1);
                            return x * 2L;
                        }).count()));
        add(CorpusApp.reuse(new FailingStage()).fixedBy("the malformed record filtered out before parsing", c -> c,
                (spark, ctx) -> {
                    List<String> lines = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        lines.add(i == 13_337 ? "n/a" : Integer.toString(i));
                    }
                    JavaRDD<String> input = JavaSparkContext.fromSparkContext(spark.sparkContext())
                            .parallelize(lines, 8);
                    input.count();
                    input.filter(l -> l.matches("-?\\d+")).map(Long::parseLong).reduce(Long::sum);
                }));

        // Driver
        add(CorpusApp.of("driver-collect", "collect() of 150 000 rows then 10 s of work on the driver",
                c -> c, (spark, ctx) -> {
                    List<Row> rows = spark.range(0, 150_000, 1, 4).selectExpr("concat('order-', id) AS o")
                            .collectAsList();
                    long end = System.currentTimeMillis() + 10_000;
                    MessageDigest sha = MessageDigest.getInstance("SHA-256");
                    while (System.currentTimeMillis() < end) {
                        for (Row r : rows) {
                            sha.update(r.getString(0).getBytes(StandardCharsets.UTF_8));
                        }
                    }
                    spark.range(0, 1000, 1, 2).count();
                }).fixedBy("the rows hashed by the executors: no collect(), no driver loop", (spark, ctx) -> {
                    spark.range(0, 150_000, 1, 4).selectExpr("sha2(concat('order-', id), 256) AS h")
                            .agg(count("h")).collectAsList();
                    spark.range(0, 1000, 1, 2).count();
                }));
        add(CorpusApp.of("driver-job-loop", "40 tiny jobs in a driver loop, with driver work between them",
                c -> c, (spark, ctx) -> {
                    for (int i = 0; i < 40; i++) {
                        spark.range(0, 1000, 1, 2).where("id % " + (i + 2) + " = 0").count();
                        Thread.sleep(150);
                    }
                }).fixedBy("the 40 counts in one job, without the driver loop", (spark, ctx) -> {
                    List<Column> counts = new ArrayList<>();
                    for (int i = 0; i < 40; i++) {
                        counts.add(sum(when(col("id").mod(i + 2).equalTo(0), 1).otherwise(0)).as("c" + i));
                    }
                    spark.range(0, 1000, 1, 2)
                            .agg(counts.get(0), counts.subList(1, counts.size()).toArray(Column[]::new))
                            .collectAsList();
                }));

        // Joins
        add(CorpusApp.of("join-not-broadcast", "a 200-row dimension joined by sort-merge (broadcast threshold -1)",
                c -> c.set("spark.sql.autoBroadcastJoinThreshold", "-1"),
                (spark, ctx) -> joinDimension(spark, false))
                .fixedBy("a broadcast hint on the 200-row dimension", (spark, ctx) -> joinDimension(spark, true)));

        // Input and output (no finding exists yet: labels are pending)
        add(CorpusApp.of("repeated-read-no-cache", "the same parquet input read by four jobs, never cached",
                c -> c, (spark, ctx) -> fourQueries(repeatedInput(spark, ctx).where(REPEATED_FILTER)))
                .fixedBy("the filtered input cached once for the four jobs", (spark, ctx) -> {
                    Dataset<Row> in = repeatedInput(spark, ctx).where(REPEATED_FILTER).cache();
                    try {
                        fourQueries(in);
                    } finally {
                        in.unpersist();
                    }
                }));
        add(CorpusApp.of("csv-schema-inference", "CSV read with inferSchema: a whole extra pass over the input",
                c -> c, (spark, ctx) -> {
                    String path = ctx.workDir().resolve("infer-csv").toString();
                    spark.range(0, rows(CSV_ROWS), 1, 4).selectExpr("id", "id * 1.5 AS x", "concat('n', id) AS s")
                            .write().mode("overwrite").option("header", "true").csv(path);
                    spark.read().option("header", "true").option("inferSchema", "true").csv(path)
                            .groupBy().sum("x").collectAsList();
                }).fixedBy("the schema given: no inference pass", (spark, ctx) -> {
                    String path = ctx.workDir().resolve("infer-csv").toString();
                    spark.range(0, rows(CSV_ROWS), 1, 4).selectExpr("id", "id * 1.5 AS x", "concat('n', id) AS s")
                            .write().mode("overwrite").option("header", "true").csv(path);
                    spark.read().option("header", "true").schema(NUMBERS_SCHEMA).csv(path)
                            .groupBy().sum("x").collectAsList();
                }));
        add(CorpusApp.of("json-schema-inference", "JSON read without a schema: Spark scans it once to infer one",
                c -> c, (spark, ctx) -> {
                    String path = ctx.workDir().resolve("infer-json").toString();
                    spark.range(0, rows(JSON_ROWS), 1, 4).selectExpr("id", "id * 1.5 AS x", "concat('n', id) AS s")
                            .write().mode("overwrite").json(path);
                    spark.read().json(path).groupBy().sum("x").collectAsList();
                }).fixedBy("the schema given: no inference pass", (spark, ctx) -> {
                    String path = ctx.workDir().resolve("infer-json").toString();
                    spark.range(0, rows(JSON_ROWS), 1, 4).selectExpr("id", "id * 1.5 AS x", "concat('n', id) AS s")
                            .write().mode("overwrite").json(path);
                    spark.read().schema(NUMBERS_SCHEMA).json(path).groupBy().sum("x").collectAsList();
                }));
        add(CorpusApp.of("many-small-files", "600 tiny files written, then read back (one task each)",
                c -> c.set("spark.sql.files.maxPartitionBytes", "1k").set("spark.sql.files.openCostInBytes", "1k"),
                (spark, ctx) -> smallFiles(spark, ctx, 600)).fixedBy("the output compacted into 2 files",
                (spark, ctx) -> smallFiles(spark, ctx, 2)));
        add(CorpusApp.of("partitioned-full-scan", "a table partitioned by day read without a filter on day",
                c -> c, (spark, ctx) -> {
                    // the filter is on customer, not on the partition column: every day's files are read
                    writeByDay(spark, ctx).where(FLAGGED).count();
                }).fixedBy("a filter on the partition column: one day's files read", (spark, ctx) ->
                        writeByDay(spark, ctx).where("day = 12 AND " + FLAGGED).count()));

        // Memory and serialization
        // The fix allocates nothing per record: the baseline kept a boxed list of strings per key only to count them,
        // so the fixed code counts into one primitive array per task (letting Spark reduce Tuple2s by key would still
        // allocate a pair and two boxes per record, and shuffle them).
        add(CorpusApp.reuse(new GcPressure()).fixedBy("each task counts its keys in a primitive array instead of a "
                + "HashMap of string lists: no object per record", c -> c.setMaster("local[4,3]"), (spark, ctx) ->
                JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(numbers(16), 16)
                        .mapPartitions(seeds -> {
                            int[] sizes = new int[150_000];
                            while (seeds.hasNext()) {
                                int seed = seeds.next();
                                for (long i = 0; i < 600_000; i++) {
                                    sizes[(int) ((i * 7 + seed) % 150_000)]++;
                                }
                            }
                            List<Integer> out = new ArrayList<>();
                            for (int n : sizes) {
                                if (n > 0) {
                                    out.add(n);
                                }
                            }
                            return out.iterator();
                        }).count()));
        add(CorpusApp.reuse(new JavaSerializer()));

        // Streaming (rate source, a few seconds)
        add(CorpusApp.of("streaming-keeps-up", "a rate-source query whose batches finish well within the trigger",
                c -> c.set("spark.sql.shuffle.partitions", "2"),
                (spark, ctx) -> runStream(spark, ctx, "keeps-up", 50, "2 seconds", null, 64_000)));
        add(CorpusApp.of("streaming-falls-behind", "a rate-source query whose batches take longer than the trigger",
                c -> c.set("spark.sql.shuffle.partitions", "2"),
                (spark, ctx) -> runStream(spark, ctx, "falls-behind", 400, "1 second", new BatchPacer(), 63_000)));

        // Idle resources
        // Idle resources: executors in JVMs of their own (local-cluster), so that they are held and idle for real
        add(CorpusApp.of("interactive-think-time", "an interactive session: small queries with 15 s of thinking "
                + "between, on two executors held throughout", c -> asShell(onLocalCluster(c)), (spark, ctx) -> {
                    Dataset<Row> t = spark.range(0, 100_000, 1, 2).selectExpr("id", "id % 10 AS g");
                    for (int i = 0; i < 4; i++) {
                        t.where("g = " + i).count();
                        Thread.sleep(15_000);
                    }
                }));
        add(CorpusApp.of("idle-executors", "two executors held through 20 s without tasks, no dynamic allocation",
                c -> onLocalCluster(c).set("spark.dynamicAllocation.enabled", "false"), (spark, ctx) -> {
                    spark.range(0, 200_000, 1, 4).selectExpr("sum(id)").collectAsList();
                    Thread.sleep(20_000);
                    spark.range(0, 200_000, 1, 4).selectExpr("max(id)").collectAsList();
                }));

        // Mixes of two problems
        add(CorpusApp.of("skew-and-spill", "a sort where one key holds most rows, with too little memory",
                c -> c.set("spark.memory.fraction", "0.1")
                        .set("spark.shuffle.spill.numElementsForceSpillThreshold", "20000")
                        .set("spark.sql.shuffle.partitions", "8"),
                (spark, ctx) -> spark.range(0, rows(SKEW_SPILL_ROWS), 1, 4)
                        .withColumn("k", when(col("id").mod(10).lt(8), lit(0)).otherwise(col("id").mod(1000)))
                        .selectExpr("k", "sha2(cast(id AS string), 256) AS h")
                        .repartition(col("k")).sortWithinPartitions("h").write().format("noop").mode("overwrite")
                        .save()).fixedBy("the hot key salted over 8 sub-keys (the memory left as it is)",
                (spark, ctx) -> spark.range(0, rows(SKEW_SPILL_ROWS), 1, 4)
                        .withColumn("k", when(col("id").mod(10).lt(8), lit(0)).otherwise(col("id").mod(1000)))
                        .selectExpr("k", "id % " + SALTS + " AS salt", "sha2(cast(id AS string), 256) AS h")
                        .repartition(col("k"), col("salt")).sortWithinPartitions("h").write().format("noop")
                        .mode("overwrite").save()));
        add(CorpusApp.of("tiny-tasks-driver-loop", "12 jobs in a loop, each of 300 tiny tasks, with driver work between",
                c -> c, (spark, ctx) -> {
                    for (int i = 0; i < 12; i++) {
                        long n = spark.range(0, 3_000, 1, 300).where("id % " + (i + 2) + " = 1").count();
                        driverWork(n, 1_800);
                    }
                }).fixedBy("the per-result hashing done by the executors inside each job, not by the driver between"
                        + " jobs (the 300 tiny tasks per job kept)", (spark, ctx) -> {
                    for (int i = 0; i < 12; i++) {
                        spark.range(0, 3_000, 1, 300).where("id % " + (i + 2) + " = 1")
                                .selectExpr("sha2(cast(id AS string), 256) AS h").agg(count("h")).collectAsList();
                    }
                }));
    }

    private CorpusApps() {
    }

    /** A SQL expression hashing {@code expr} {@code rounds} times with SHA-512: a CPU cost per row. */
    private static String hashed(String expr, int rounds) {
        String h = expr;
        for (int i = 0; i < rounds; i++) {
            h = "sha2(" + h + ", 512)";
        }
        return h;
    }

    /**
     * The app on {@link #LOCAL_CLUSTER}. Without a Spark home Spark would wait forever for executors that never start,
     * so a missing one is an error naming what to set.
     */
    static SparkConf onLocalCluster(SparkConf c) {
        String home = System.getenv("SPARK_HOME");
        if (home == null || !Files.isRegularFile(Path.of(home, "RELEASE"))
                || !Files.isDirectory(Path.of(home, "jars"))
                || System.getenv("SPARK_SCALA_VERSION") == null) {
            throw new IllegalStateException(LOCAL_CLUSTER + " needs SPARK_HOME (a folder with RELEASE and jars/) and "
                    + "SPARK_SCALA_VERSION to start its executors; bench/spark-home.sh makes both (SPARK_HOME now "
                    + (home == null ? "unset" : home) + ")");
        }
        return c.setMaster(LOCAL_CLUSTER);
    }

    /**
     * The app as a Scala shell runs: the shell sets spark.repl.class.outputDir (where it compiles the lines typed
     * into it, served to the executors), the mark its event log carries of a person at a prompt.
     */
    private static SparkConf asShell(SparkConf c) {
        try {
            Path classes = Files.createTempDirectory("corpus-repl");
            classes.toFile().deleteOnExit(); // nothing is compiled into it: it stays empty
            return c.set("spark.repl.class.outputDir", classes.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The full size (first), or the quick one (second) while {@link #QUICK_PROPERTY} is set. */
    private static long rows(long[] fullAndQuick) {
        return Boolean.getBoolean(QUICK_PROPERTY) ? fullAndQuick[1] : fullAndQuick[0];
    }

    private static void add(CorpusApp app) {
        APPS.put(app.name(), app);
    }

    public static List<CorpusApp> all() {
        return List.copyOf(APPS.values());
    }

    public static Optional<CorpusApp> find(String name) {
        return Optional.ofNullable(APPS.get(name));
    }

    /**
     * Groups 1.2 million rows into 300 000 lists. The object hash aggregate falls back to sorting after a few
     * keys, and with the memory {@link #smallMemoryFraction()} leaves, a task holding a quarter of the rows cannot
     * keep them in memory and spills; a sixty-fourth of them fits.
     */
    private static void spillAggregate(SparkSession spark, int partitions) {
        spark.range(0, 1_200_000, 1, partitions).selectExpr("id % 300000 AS k", "concat('event-', id) AS v")
                .groupBy("k").agg(size(collect_list("v")).as("n")).write().format("noop").mode("overwrite").save();
    }

    /**
     * A global sort of rows with string columns, written to the "noop" sink (which keeps the sort in the plan): at
     * full size each of its 4 sorting tasks holds far more than the memory {@link #smallMemoryFraction()} leaves.
     */
    private static void globalSort(SparkSession spark, JobContext ctx) {
        spark.range(0, rows(SORT_ROWS), 1, 4)
                .selectExpr("id", "(id * 7919) % 1000003 AS k", "concat('customer-', id % 50000) AS c",
                        "concat_ws('', rand(1), rand(2), rand(3), rand(4), rand(5), rand(6)) AS payload")
                .orderBy("k").write().format("noop").mode("overwrite").save();
    }

    /**
     * The spark.memory.fraction that leaves about 48 MiB for execution and storage together, whatever heap this JVM
     * got: a fixed fraction would spill on a small heap and not at all on a large one.
     */
    private static String smallMemoryFraction() {
        long reserved = 300L << 20; // what Spark keeps back from the heap before applying the fraction
        long usable = Math.max(Runtime.getRuntime().maxMemory() - reserved, 96L << 20);
        return String.format(Locale.ROOT, "%.4f", Math.min(1.0, (48.0 * (1 << 20)) / usable));
    }

    /** Six million hashes: about 10 s in one task on a quiet machine, so the idle core costs about 5 s. */
    private static void distinctPrefixes(SparkSession spark, int partitions) {
        spark.range(0, 6_000_000, 1, partitions).selectExpr("sha2(cast(id AS string), 256) AS h")
                .selectExpr("count(DISTINCT substr(h, 1, 5))").collectAsList();
    }

    private static void hashAndWrite(Dataset<Long> ids, JobContext ctx) {
        ids.selectExpr("sha2(cast(id AS string), 512) AS h").where("h LIKE 'a%'")
                .write().mode("overwrite").parquet(ctx.workDir().resolve("coalesce-one").toString());
    }

    /**
     * The heavy part comes after the repartition: each row hashed six times over, about 6 s of task time on a quiet
     * machine (in one task after repartition(1), while the other core idles), while the input before it stays cheap.
     */
    private static void hashPrefixes(SparkSession spark, int partitions) {
        spark.range(0, 1_200_000, 1, 8).repartition(partitions).selectExpr(hashed("cast(id AS string)", 6) + " AS h")
                .selectExpr("count(DISTINCT substr(h, 1, 4))").collectAsList();
    }

    private static void smallAggregate(SparkSession spark, JobContext ctx) {
        spark.range(0, 20_000, 1, 2).selectExpr("id % 3000 AS k").groupBy("k").count()
                .write().format("noop").mode("overwrite").save();
    }

    private static void joinDimension(SparkSession spark, boolean broadcastHint) {
        Dataset<Row> dim = spark.range(0, 200, 1, 1).selectExpr("id AS d", "concat('dim-', id) AS name");
        spark.range(0, rows(JOIN_ROWS), 1, 4).selectExpr("id", "id % 200 AS d").join(broadcastHint ? broadcast(dim) : dim, "d")
                .groupBy("name").count().collectAsList();
    }

    /**
     * Orders partitioned by day (4 writing tasks, so 120 files: small, but cheap next to the scan below), read back.
     * Half a million rows: the write takes a few seconds on a quiet machine (120 files), the scan with its per-row
     * check about twice as long.
     */
    private static Dataset<Row> writeByDay(SparkSession spark, JobContext ctx) {
        String path = ctx.workDir().resolve("by-day").toString();
        spark.range(0, 500_000, 1, 4).selectExpr("id", "id % 30 AS day", "id % 1000 AS customer",
                "concat('order-', id) AS note").write().mode("overwrite").partitionBy("day").parquet(path);
        return spark.read().parquet(path);
    }

    /** Writes the repeated-read apps' input and returns it read back, unfiltered. */
    private static Dataset<Row> repeatedInput(SparkSession spark, JobContext ctx) {
        String path = ctx.workDir().resolve("repeated-input").toString();
        spark.range(0, REPEATED_ROWS, 1, 4).selectExpr("id", "id % 97 AS g", "sha2(cast(id AS string), 256) AS h")
                .write().mode("overwrite").parquet(path);
        return spark.read().parquet(path);
    }

    private static void fourQueries(Dataset<Row> in) {
        in.count();
        in.groupBy("g").count().collectAsList();
        in.agg(sum("id")).collectAsList();
        in.select("h").distinct().count();
    }

    /** {@code files} parquet files of 6 000 rows in all, then read back. */
    private static void smallFiles(SparkSession spark, JobContext ctx, int files) {
        String path = ctx.workDir().resolve("small-files").toString();
        Dataset<Long> ids = spark.range(0, 6_000, 1, 600);
        // one file per partition: the problem app writes all 600, its fix compacts them first
        (files < 600 ? ids.coalesce(files) : ids).selectExpr("id", "id % 7 AS g").write().mode("overwrite")
                .parquet(path);
        spark.read().parquet(path).groupBy("g").count().collectAsList();
    }

    /** The driver's own work on a job's result: {@code ms} of hashing while the executors wait. */
    private static void driverWork(long seed, long ms) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long end = System.currentTimeMillis() + ms;
        for (long i = seed; System.currentTimeMillis() < end; i++) {
            sha.update(Long.toString(i).getBytes(StandardCharsets.UTF_8));
        }
    }

    private static List<Integer> numbers(int n) {
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    /** CPU work proportional to the group's size, so the hot group's task is the long one. */
    private static int digestAll(Iterable<Integer> values) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        int n = 0;
        for (Integer v : values) {
            for (int r = 0; r < DIGEST_ROUNDS; r++) {
                sha.update(Integer.toString(v + r).getBytes(StandardCharsets.UTF_8));
            }
            n++;
        }
        return n + sha.digest()[0];
    }

    /**
     * Until when (System.nanoTime) the rows of the batch in flight keep the CPU busy; 0 when rows cost nothing, and
     * once the stream's time is up, so that it ends soon and cleanly.
     */
    private static volatile long busyUntilNanos;

    /**
     * A rate-source query summing a per-row cost by key into memory. Without a pacer it runs for {@code runMs} and rows
     * cost nothing. With one, the rows keep the CPU busy so that the query processes them more slowly than they
     * arrive, and it runs until its batches have fallen behind, one after another, for {@link BatchPacer#MIN_BATCHES}
     * batches and {@code runMs} (what StreamingFallingBehind needs: 10 batches and 60 s). The query is stopped between batches, never in one, so no job
     * is cancelled.
     */
    private static void runStream(SparkSession spark, JobContext ctx, String name, int rowsPerSecond,
                                  String trigger, BatchPacer pacer, long runMs) throws Exception {
        // a fresh checkpoint: a rerun must not resume the previous run's offsets
        org.apache.commons.io.FileUtils.deleteQuietly(ctx.workDir().resolve("checkpoint-" + name).toFile());
        busyUntilNanos = 0;
        spark.udf().register("corpus_row_cost", (UDF1<Long, Long>) v -> work(), DataTypes.LongType);
        if (pacer != null) {
            spark.streams().addListener(pacer);
        }
        Dataset<Row> rows = spark.readStream().format("rate").option("rowsPerSecond", rowsPerSecond)
                .option("numPartitions", 2).load();
        StreamingQuery q = rows.selectExpr("value % 10 AS k", "corpus_row_cost(value) AS cost")
                .groupBy("k").agg(sum("cost").as("cost")).writeStream().outputMode("complete").format("memory")
                .queryName("corpus_" + name.replace('-', '_'))
                .option("checkpointLocation", ctx.workDir().resolve("checkpoint-" + name).toString())
                .trigger(Trigger.ProcessingTime(trigger)).start();
        if (pacer == null) {
            q.awaitTermination(runMs);
        } else {
            // how long start-up takes depends on the machine; what must last is the run of slow batches
            long giveUp = System.currentTimeMillis() + runMs + 60_000;
            while (q.isActive() && !pacer.behindFor(runMs) && System.currentTimeMillis() < giveUp) {
                Thread.sleep(100);
            }
            pacer.stop();
            spark.streams().removeListener(pacer);
        }
        stopBetweenBatches(q);
    }

    /** Lets the batch in flight finish (its rows now cost nothing) and stops the query while it waits for its trigger. */
    private static void stopBetweenBatches(StreamingQuery q) throws Exception {
        busyUntilNanos = 0;
        long last = q.lastProgress() == null ? -1 : q.lastProgress().batchId();
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline && q.isActive()) {
            boolean advanced = q.lastProgress() != null && q.lastProgress().batchId() > last;
            if (advanced && !q.status().isTriggerActive()) {
                break;
            }
            Thread.sleep(10);
        }
        q.stop();
    }

    /** Burns CPU until the batch's work is due to end (wall time, so a loaded machine does not change it). */
    private static long work() {
        long x = 0;
        long until = busyUntilNanos;
        while (busyUntilNanos != 0 && System.nanoTime() < until) {
            x = x * 31 + 7;
        }
        return x & 1;
    }

    /**
     * Paces the falls-behind query: after each batch it sets when the next batch's work ends, so that the rows' work
     * alone takes {@link #GROWTH} times as long as the whole previous batch really took. Batches then run back to
     * back, each taking everything that arrived during the previous one, and the query processes rows at most at
     * 1/1.15 of the rate they arrive, whatever the machine's load. A fixed CPU cost per row would make the growth
     * depend on that load, because Spark's own time per batch (planning, state, commit) varies several-fold between
     * a quiet and a busy machine. The pacer also counts the run of batches that fell behind the way Spark's progress
     * reports it (processed rows per second below input rows per second), so the query stops only once that run is
     * long enough to be judged: on a quiet machine about ten batches from 2 s to 15 s, some 75 s.
     */
    private static final class BatchPacer extends StreamingQueryListener {
        private static final double GROWTH = 1.15;
        private static final long FIRST_BATCH_MS = 2_000;
        static final int MIN_BATCHES = 10;

        private volatile long targetMs;
        private volatile int streakBatches;
        private volatile long streakStartMs = -1;
        private volatile long streakEndMs = -1;
        private volatile boolean stopped;

        /** The batches fell behind one after another for {@link #MIN_BATCHES} batches and {@code ms}. */
        boolean behindFor(long ms) {
            return streakBatches >= MIN_BATCHES && streakEndMs - streakStartMs >= ms;
        }

        void stop() {
            stopped = true;
        }

        @Override
        public void onQueryProgress(QueryProgressEvent event) {
            if (stopped) {
                busyUntilNanos = 0;
                return;
            }
            var p = event.progress();
            boolean behind = p.numInputRows() > 0 && p.inputRowsPerSecond() > 0
                    && p.processedRowsPerSecond() < p.inputRowsPerSecond();
            long startMs = java.time.Instant.parse(p.timestamp()).toEpochMilli();
            if (behind) {
                streakStartMs = streakBatches == 0 ? startMs : streakStartMs;
                streakEndMs = startMs + p.batchDuration();
                streakBatches++;
            } else {
                streakBatches = 0;
            }
            // The rows' work alone lasts 1.15 times as long as the whole previous batch took; Spark's own time
            // (planning, state, commit) comes on top, so every paced batch takes longer than the one before and
            // falls behind however much that own time varies. The first batch, empty, is left out: it holds the
            // query's start-up, which a busy machine stretches several-fold.
            targetMs = targetMs == 0 ? FIRST_BATCH_MS : Math.round(Math.max(targetMs, p.batchDuration()) * GROWTH);
            busyUntilNanos = System.nanoTime() + targetMs * 1_000_000;
        }

        @Override
        public void onQueryStarted(QueryStartedEvent event) {
        }

        @Override
        public void onQueryTerminated(QueryTerminatedEvent event) {
        }
    }
}
