package io.sparkscope.server.web.http;

import io.javalin.http.Context;

import java.util.List;

/**
 * Where named parameters come from: a web request's query string, or the arguments of an agent's tool call. The
 * checks of {@link Params} and {@link SearchParams} read either, so both answer the same value with the same error.
 */
public interface Query {
    /** The parameter's first value as given, or null when absent. */
    String first(String name);

    /** Every value given for the parameter, in order (empty when absent). */
    List<String> all(String name);

    static Query of(Context ctx) {
        return new Query() {
            @Override
            public String first(String name) {
                return ctx.queryParam(name);
            }

            @Override
            public List<String> all(String name) {
                return ctx.queryParams(name);
            }
        };
    }
}
