package io.sparkscope.core.recorder;

/**
 * What every live entity of the {@link Recorder} carries for dirty tracking, as Spark's live entities carry their
 * {@code lastWriteTime}: the recorder's event count when the entity last changed. A snapshot taken after event N
 * holds the entity as of then; once that snapshot is written ({@link Recorder#written}), the entity is clean until
 * it changes again. Only clean entities may leave the recorder's window ({@link Window}).
 */
abstract class LiveEntity {
    /** Event count at the last change; 0 never compares as written (written marks start at -1). */
    long lastChange;

    void changedAt(long eventCount) {
        lastChange = eventCount;
    }

    /** Whether a snapshot taken at or after this entity's last change was written. */
    boolean writtenBy(long writtenUpTo) {
        return lastChange <= writtenUpTo;
    }
}
