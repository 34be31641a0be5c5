package io.sparkscope.listener;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Scala collections and options through the few methods Scala 2.12 and 2.13 share ({@code iterator},
 * {@code hasNext}, {@code next}, {@code isDefined}, {@code get}), so one source compiles for both.
 */
final class ScalaInterop {
    private ScalaInterop() {
    }

    static <T> List<T> list(scala.collection.Iterable<T> seq) {
        if (seq == null) {
            return List.of();
        }
        List<T> out = new ArrayList<>();
        scala.collection.Iterator<T> it = seq.iterator();
        while (it.hasNext()) {
            out.add(it.next());
        }
        return out;
    }

    static List<Integer> intList(scala.collection.Iterable<Object> seq) {
        List<Integer> out = new ArrayList<>();
        if (seq != null) {
            scala.collection.Iterator<Object> it = seq.iterator();
            while (it.hasNext()) {
                out.add(((Number) it.next()).intValue());
            }
        }
        return out;
    }

    static Map<String, String> pairs(scala.collection.Iterable<scala.Tuple2<String, String>> seq) {
        Map<String, String> out = new LinkedHashMap<>();
        if (seq != null) {
            scala.collection.Iterator<scala.Tuple2<String, String>> it = seq.iterator();
            while (it.hasNext()) {
                scala.Tuple2<String, String> kv = it.next();
                out.put(kv._1(), kv._2());
            }
        }
        return out;
    }

    static long longOr(scala.Option<Object> opt, long fallback) {
        return opt != null && opt.isDefined() ? ((Number) opt.get()).longValue() : fallback;
    }

    static String stringOr(scala.Option<String> opt, String fallback) {
        return opt != null && opt.isDefined() ? opt.get() : fallback;
    }
}
