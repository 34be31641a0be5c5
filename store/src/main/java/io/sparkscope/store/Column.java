package io.sparkscope.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** A column of a child table with the JDBC binding its values need. Package-private plumbing. */
record Column(String name, Type type) {

    enum Type {
        TEXT, INT, BIGINT, BOOL, JSONB, INT_ARRAY, TEXT_ARRAY, FLOAT8_ARRAY;

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
                case BOOL -> "boolean";
                case JSONB -> "jsonb";
                case INT_ARRAY -> "integer[]";
                case TEXT_ARRAY -> "text[]";
                case FLOAT8_ARRAY -> "double precision[]";
            };
        }

        String elementType() {
            return switch (this) {
                case TEXT, TEXT_ARRAY -> "text";
                case INT, INT_ARRAY -> "int4";
                case BIGINT -> "int8";
                case FLOAT8_ARRAY -> "float8";
                default -> throw new IllegalStateException(this + " has no array element type");
            };
        }
    }

    static Column text(String name) {
        return new Column(name, Type.TEXT);
    }

    static Column integer(String name) {
        return new Column(name, Type.INT);
    }

    static Column bigint(String name) {
        return new Column(name, Type.BIGINT);
    }

    static Column bool(String name) {
        return new Column(name, Type.BOOL);
    }

    static Column jsonb(String name) {
        return new Column(name, Type.JSONB);
    }

    static Column intArray(String name) {
        return new Column(name, Type.INT_ARRAY);
    }

    static Column textArray(String name) {
        return new Column(name, Type.TEXT_ARRAY);
    }

    static Column float8Array(String name) {
        return new Column(name, Type.FLOAT8_ARRAY);
    }

    /** Binds one value; values are already Java types matching {@link #type} (Integer[], String[], Double[] for arrays). */
    void bind(Connection c, PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, switch (type) {
                case TEXT, JSONB -> Types.VARCHAR;
                case INT -> Types.INTEGER;
                case BIGINT -> Types.BIGINT;
                case BOOL -> Types.BOOLEAN;
                case INT_ARRAY, TEXT_ARRAY, FLOAT8_ARRAY -> Types.ARRAY;
            });
            return;
        }
        switch (type) {
            // PostgreSQL text cannot hold NUL; Spark strings never should, but one must not fail a whole snapshot.
            case TEXT -> ps.setString(index, ((String) value).replace('\u0000', '\uFFFD'));
            case JSONB -> ps.setString(index, (String) value);
            case INT -> ps.setInt(index, (Integer) value);
            case BIGINT -> ps.setLong(index, (Long) value);
            case BOOL -> ps.setBoolean(index, (Boolean) value);
            case INT_ARRAY, FLOAT8_ARRAY -> ps.setArray(index, array(c, type.elementType(), (Object[]) value));
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
