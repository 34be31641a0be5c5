package io.sparkscope.store;

/**
 * What {@link SchemaManager#check} found: the schema version in the database against the one this code was built for.
 *
 * @param current  highest applied migration version, or null when the database has no Sparkscope schema yet
 * @param expected highest migration version this code ships
 * @param state    how the two compare
 * @param message  one sentence for a log line or an error page, saying what to do
 */
public record SchemaStatus(String current, String expected, State state, String message) {

    public enum State {
        /** No Sparkscope schema history: {@link SchemaManager#migrate} creates everything. */
        EMPTY,
        /** The database lacks migrations this code needs: run {@link SchemaManager#migrate} (the server does). */
        OLDER,
        /** Exactly what this code expects. */
        CURRENT,
        /** A newer Sparkscope migrated this database; this code may not understand the schema. */
        NEWER,
        /** A migration failed half-way; a human has to look (Flyway repair after fixing). */
        FAILED,
        /**
         * The database's migration history does not match this code's migrations (a version applied there that this
         * code does not ship, or a script whose checksum differs): typically a database written by another
         * development build. Nothing is changed; a human decides.
         */
        MISMATCHED
    }

    /** True when this code can read and write the database as it is. */
    public boolean usable() {
        return state == State.CURRENT;
    }
}
