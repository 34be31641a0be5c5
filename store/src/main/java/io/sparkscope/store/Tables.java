package io.sparkscope.store;

import java.util.List;

import static io.sparkscope.store.Column.bigint;
import static io.sparkscope.store.Column.bool;
import static io.sparkscope.store.Column.float8Array;
import static io.sparkscope.store.Column.intArray;
import static io.sparkscope.store.Column.integer;
import static io.sparkscope.store.Column.jsonb;
import static io.sparkscope.store.Column.text;
import static io.sparkscope.store.Column.textArray;

/** The child tables of V1__schema.sql (and columns added by later versions) as the writer sees them. Order of {@link #ALL} = parents before children. */
final class Tables {
    static final Table CONFIGURATION = new Table("configuration",
            List.of(text("scope"), text("key")),
            List.of(text("value")));

    static final Table EXECUTOR = new Table("executor",
            List.of(text("executor_id")),
            List.of(integer("ord"), text("host"), integer("total_cores"), bigint("add_time"), bigint("remove_time"),
                    text("remove_reason"), bigint("max_memory"), integer("completed_tasks"), integer("failed_tasks"),
                    integer("killed_tasks"), bigint("total_duration_ms"), bigint("total_run_time_ms"),
                    bigint("total_cpu_time_ns"), bigint("total_gc_time_ms"), bigint("input_bytes"),
                    bigint("shuffle_read_bytes"), bigint("shuffle_write_bytes"), bigint("memory_bytes_spilled"),
                    bigint("disk_bytes_spilled"), jsonb("peak_metrics"),
                    // V14
                    text("host_port"), bool("added"), integer("total_tasks"), integer("active_tasks"),
                    bigint("max_on_heap_memory"), bigint("max_off_heap_memory")));

    static final Table JOB = new Table("job",
            List.of(integer("job_id")),
            List.of(integer("ord"), text("name"), text("description"), text("job_group"), bigint("submission_time"),
                    bigint("completion_time"), bigint("duration_ms"), text("status"), text("failure_reason"),
                    intArray("stage_ids"), bigint("sql_execution_id"), integer("num_tasks"),
                    integer("num_completed_tasks"), integer("num_failed_tasks"), integer("num_killed_tasks"),
                    integer("num_skipped_stages"),
                    // V14
                    integer("num_active_tasks"), integer("num_completed_indices"), integer("num_skipped_tasks"),
                    integer("num_active_stages"), integer("num_completed_stages"), integer("num_failed_stages"),
                    jsonb("killed_tasks_summary"), textArray("job_tags")));

    static final Table STAGE = new Table("stage_attempt",
            List.of(integer("stage_id"), integer("attempt_id")),
            List.of(integer("ord"), text("name"), text("details"), text("status"), integer("num_tasks"),
                    integer("num_active_tasks"), integer("num_complete_tasks"), integer("num_failed_tasks"),
                    integer("num_killed_tasks"), integer("num_completed_indices"), bigint("submission_time"),
                    bigint("completion_time"), bigint("first_task_launched_time"), bigint("last_task_finished_time"),
                    bigint("duration_ms"), text("failure_reason"), intArray("parent_ids"), intArray("job_ids"),
                    bigint("executor_run_time_ms"), bigint("executor_cpu_time_ns"), bigint("jvm_gc_time_ms"),
                    bigint("memory_bytes_spilled"), bigint("disk_bytes_spilled"), bigint("shuffle_read_bytes"),
                    bigint("shuffle_write_bytes"), bigint("input_bytes"), bigint("output_bytes"), jsonb("totals"),
                    jsonb("end_reasons"), bigint("summary_task_count"), float8Array("summary_quantiles"),
                    // V4
                    text("task_detail"), bigint("tasks_digest"), bigint("task_duration_ms"),
                    bigint("scheduler_delay_ms"), bigint("getting_result_ms"),
                    // V14
                    integer("kept_tasks")));

    static final Table STAGE_STATISTICS = new Table("stage_statistics",
            List.of(integer("stage_id"), integer("stage_attempt_id"), text("metric")),
            List.of(float8Array("vals")));

    static final Table TASK = new Table("task",
            List.of(integer("stage_id"), integer("stage_attempt_id"), bigint("task_id")),
            List.of(integer("ord"), integer("task_index"), integer("attempt"), integer("partition_id"),
                    text("executor_id"), text("host"), text("locality"), bool("speculative"), bigint("launch_time"),
                    bigint("finish_time"), bigint("getting_result_time"), bigint("duration_ms"), text("status"),
                    text("end_reason"), text("error_message"), jsonb("metrics"),
                    // V14
                    text("error_detail"), bigint("executor_run_time_ms")));

    static final Table SQL_EXECUTION = new Table("sql_execution",
            List.of(bigint("execution_id")),
            List.of(integer("ord"), text("description"), bigint("start_time"), bigint("end_time"),
                    text("error_message"), text("physical_plan_description"), jsonb("plan"), intArray("job_ids"),
                    jsonb("metric_values")));

    static final Table FINDING = new Table("finding",
            List.of(text("finding_id")),
            List.of(integer("ord"), text("heuristic"), text("severity"), text("title"), text("message"),
                    text("recommendation"), textArray("stage_ids"), textArray("executor_ids"), textArray("config_keys"),
                    jsonb("details")));

    static final List<Table> ALL = List.of(CONFIGURATION, EXECUTOR, JOB, STAGE, STAGE_STATISTICS, TASK, SQL_EXECUTION,
            FINDING);

    private Tables() {
    }
}
