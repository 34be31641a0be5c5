package io.sparkscope.archive;

import java.io.Serializable;

/**
 * One log of the archive as the driver listed it, without opening it.
 *
 * @param location   what a task resolves to read it: an absolute local path, or the URI of a file or rolling
 *                   directory on a Hadoop filesystem
 * @param key        what names the log in {@code log_watch}, as a watcher names it: its location without
 *                   {@code .inprogress}, so a log Spark renames when its application ends is still the same log
 * @param rolling    a rolling log's {@code eventlog_v2_*} directory
 * @param size       bytes (a rolling log: of its parts), for the split over tasks and to tell a rerun it was stored
 * @param modified   last modification, epoch ms (a rolling log: its newest part's)
 * @param inProgress the name says its application was still writing it
 */
record LogRef(String location, String key, boolean rolling, long size, long modified, boolean inProgress)
        implements Serializable {
}
