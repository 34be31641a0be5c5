/**
 * What {@code serve} reports on {@code /metrics} in Prometheus' text format: request timings by route, the database
 * pool, the watcher, the webhook queue and, for the most active jobs, their last run's figures. The meters are
 * Micrometer's; its Prometheus registry writes them.
 */
package io.sparkscope.server.metrics;
