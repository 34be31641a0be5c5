package io.sparkscope.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.function.Function;

/**
 * A column of a table: its name, its SQL type and where its value comes from ({@code get}, applied to what one row is
 * made of, e.g. a {@code StageSummary}). The factories tie the getter's Java type to the SQL type, so an {@code int}
 * getter on a {@code bigint} column does not compile. Package-private plumbing.
 *
 * @param get returns the value in the Java type {@link #bind} and {@link CopyBinary} take: String (text, jsonb),
 *            Integer, Long, Double, Boolean, Integer[], long[], String[] or Double[]; null for SQL NULL
 */
record Column<R>(String name, Type type, Function<? super R, ?> get) {

    enum Type {
        TEXT, INT, BIGINT, FLOAT8, BOOL, JSONB, INT_ARRAY, BIGINT_ARRAY, TEXT_ARRAY, FLOAT8_ARRAY;

        /** The parameter marker: jsonb travels as text and is cast server-side (no driver-specific PGobject). */
        String marker() {
            return this == JSONB ? "CAST(? AS jsonb)" : "?";
        }

        /** PostgreSQL array type for a key column given to unnest() when deleting stale rows. */
        String arrayType() {
            return switch (this) {
                case TEXT -> "text[]";
                case INT -> "integer[]";
                case BIGINT -> "bigint[]";
                default -> throw new IllegalStateException(this + " is not a key type");
            };
        }

        /** The column's SQL type, for the COPY staging tables. */
        String sqlType() {
            return switch (this) {
                case TEXT -> "text";
                case INT -> "integer";
                case BIGINT -> "bigint";
                case FLOAT8 -> "double precision";
                case BOOL -> "boolean";
                case JSONB -> "jsonb";
                case INT_ARRAY -> "integer[]";
                case BIGINT_ARRAY -> "bigint[]";
                case TEXT_ARRAY -> "text[]";
                case FLOAT8_ARRAY -> "double precision[]";
            };
        }

        String elementType() {
            return switch (this) {
                case TEXT, TEXT_ARRAY -> "text";
                case INT, INT_ARRAY -> "int4";
                case BIGINT, BIGINT_ARRAY -> "int8";
                case FLOAT8_ARRAY -> "float8";
                default -> throw new IllegalStateException(this + " has no array element type");
            };
        }
    }

    static <R> Column<R> text(String name, Function<? super R, String> get) {
        return new Column<>(name, Type.TEXT, get);
    }

    static <R> Column<R> integer(String name, Function<? super R, Integer> get) {
        return new Column<>(name, Type.INT, get);
    }

    static <R> Column<R> bigint(String name, Function<? super R, Long> get) {
        return new Column<>(name, Type.BIGINT, get);
    }

    static <R> Column<R> float8(String name, Function<? super R, Double> get) {
        return new Column<>(name, Type.FLOAT8, get);
    }

    static <R> Column<R> bool(String name, Function<? super R, Boolean> get) {
        return new Column<>(name, Type.BOOL, get);
    }

    /** {@code get} returns the value already encoded as JSON text. */
    static <R> Column<R> jsonb(String name, Function<? super R, String> get) {
        return new Column<>(name, Type.JSONB, get);
    }

    static <R> Column<R> intArray(String name, Function<? super R, List<Integer>> get) {
        return new Column<>(name, Type.INT_ARRAY, r -> {
            List<Integer> v = get.apply(r);
            return v == null ? null : v.toArray(Integer[]::new);
        });
    }

    /** {@code get} returns a primitive array, written as it is (no boxing on the way to COPY). */
    static <R> Column<R> bigintArray(String name, Function<? super R, long[]> get) {
        return new Column<>(name, Type.BIGINT_ARRAY, get);
    }

    static <R> Column<R> textArray(String name, Function<? super R, List<String>> get) {
        return new Column<>(name, Type.TEXT_ARRAY, r -> {
            List<String> v = get.apply(r);
            return v == null ? null : v.toArray(String[]::new);
        });
    }

    static <R> Column<R> float8Array(String name, Function<? super R, double[]> get) {
        return new Column<>(name, Type.FLOAT8_ARRAY, r -> {
            double[] v = get.apply(r);
            if (v == null) {
                return null;
            }
            Double[] out = new Double[v.length];
            for (int i = 0; i < v.length; i++) {
                out[i] = v[i];
            }
            return out;
        });
    }

    /** The same column over a bigger row source, e.g. a stage summary's column over the stage row. */
    <S> Column<S> on(Function<? super S, ? extends R> part) {
        Function<? super R, ?> g = get;
        return new Column<>(name, type, s -> g.apply(part.apply(s)));
    }

    /** The value of this column in the row made of {@code source}. */
    Object valueOf(R source) {
        return get.apply(source);
    }

    /** Binds one value; values are already Java types matching {@link #type} (Integer[], String[], Double[] for arrays). */
    void bind(Connection c, PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, switch (type) {
                case TEXT, JSONB -> Types.VARCHAR;
                case INT -> Types.INTEGER;
                case BIGINT -> Types.BIGINT;
                case FLOAT8 -> Types.DOUBLE;
                case BOOL -> Types.BOOLEAN;
                case INT_ARRAY, BIGINT_ARRAY, TEXT_ARRAY, FLOAT8_ARRAY -> Types.ARRAY;
            });
            return;
        }
        switch (type) {
            // PostgreSQL text cannot hold NUL; Spark strings never should, but one must not fail a whole snapshot.
            case TEXT -> ps.setString(index, ((String) value).replace('\u0000', '\uFFFD'));
            case JSONB -> ps.setString(index, (String) value);
            case INT -> ps.setInt(index, (Integer) value);
            case BIGINT -> ps.setLong(index, (Long) value);
            case FLOAT8 -> ps.setDouble(index, (Double) value);
            case BOOL -> ps.setBoolean(index, (Boolean) value);
            case INT_ARRAY, FLOAT8_ARRAY -> ps.setArray(index, array(c, type.elementType(), (Object[]) value));
            case BIGINT_ARRAY -> {
                long[] in = (long[]) value;
                Long[] boxed = new Long[in.length];
                for (int i = 0; i < in.length; i++) {
                    boxed[i] = in[i];
                }
                ps.setArray(index, array(c, type.elementType(), boxed));
            }
            case TEXT_ARRAY -> {
                String[] in = (String[]) value;
                String[] clean = new String[in.length];
                for (int i = 0; i < in.length; i++) {
                    clean[i] = in[i] == null ? null : in[i].replace('\u0000', '\uFFFD');
                }
                ps.setArray(index, array(c, type.elementType(), clean));
            }
        }
    }

    static Array array(Connection c, String elementType, Object[] values) throws SQLException {
        return c.createArrayOf(elementType, values);
    }
}
