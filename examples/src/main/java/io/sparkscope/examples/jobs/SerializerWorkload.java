package io.sparkscope.examples.jobs;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The RDD workload both serializer examples run: 600 000 event objects shuffled by user, cached serialized and
 * aggregated. RDD data goes through {@code spark.serializer} on every shuffle and serialized cache; DataFrames use
 * Spark's own binary format instead, which is why the serializer matters for RDD code.
 */
final class SerializerWorkload {
    private SerializerWorkload() {
    }

    /** A plain Java object, as RDD code typically has. */
    public static final class Event implements Serializable {
        private static final long serialVersionUID = 1L;
        public long userId;
        public String page;
        public String country;
        public long timestamp;
        public double amount;

        public Event() {
        }

        Event(long i) {
            this.userId = (i * 7919) % 20_000;
            this.page = "/products/" + (i % 5_000);
            this.country = i % 3 == 0 ? "DE" : i % 3 == 1 ? "US" : "BR";
            this.timestamp = 1_700_000_000_000L + i * 1000;
            this.amount = (i % 1000) / 10.0;
        }
    }

    static void run(JavaSparkContext jsc) {
        List<Integer> slices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            slices.add(i);
        }
        JavaPairRDD<Long, Event> events = jsc.parallelize(slices, 8).flatMap(s -> {
            List<Event> out = new ArrayList<>(75_000);
            for (long i = s * 75_000L; i < (s + 1) * 75_000L; i++) {
                out.add(new Event(i));
            }
            return out.iterator();
        }).mapToPair(e -> new Tuple2<>(e.userId, e));
        JavaPairRDD<Long, Iterable<Event>> byUser = events.groupByKey(8).persist(StorageLevel.MEMORY_ONLY_SER());
        long users = byUser.count();
        double total = byUser.mapValues(es -> {
            double sum = 0;
            for (Event e : es) {
                sum += e.amount;
            }
            return sum;
        }).values().reduce(Double::sum);
        System.out.println("users: " + users + ", total: " + total);
    }
}
