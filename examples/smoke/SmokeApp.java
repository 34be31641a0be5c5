import org.apache.spark.sql.SparkSession;

/** The smallest Spark application: submitted with spark-submit to check the listener jar the way users attach it. */
public final class SmokeApp {
    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().appName("spark-submit-smoke").getOrCreate();
        long n = spark.range(0, 100_000, 1, 4).selectExpr("id % 10 as k").groupBy("k").count().count();
        System.out.println("smoke app counted " + n + " groups");
        spark.stop();
    }
}
