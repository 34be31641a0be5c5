-- Who started an application: the scheduler's job and run, read from its Spark properties (OpenLineage's parent and
-- root job and run, as Airflow passes them, or Airflow's task labels on a Kubernetes driver). Kept on the row so that
-- the pages link an application to its Airflow task and the search filters by DAG, task, job or run. NULL: not set,
-- or a malformed value the reader skipped. Rows stored before this migration have none until reimported.
ALTER TABLE application
    ADD COLUMN lineage_namespace      text,
    ADD COLUMN lineage_job            text,
    ADD COLUMN lineage_run_id         text,
    ADD COLUMN lineage_root_namespace text,
    ADD COLUMN lineage_root_job       text,
    ADD COLUMN lineage_root_run_id    text,
    ADD COLUMN airflow_dag_id         text,
    ADD COLUMN airflow_task_id        text;

-- Partial indexes: most applications have no scheduler context and cost the indexes nothing. The search filters by
-- DAG (and task), by parent job, and by a run id that may be either the task's run or the DAG run (the root).
CREATE INDEX application_airflow_idx ON application (airflow_dag_id, airflow_task_id, start_time)
    WHERE airflow_dag_id IS NOT NULL;
CREATE INDEX application_lineage_job_idx ON application (lineage_job, start_time) WHERE lineage_job IS NOT NULL;
CREATE INDEX application_lineage_run_idx ON application (lineage_run_id) WHERE lineage_run_id IS NOT NULL;
CREATE INDEX application_lineage_root_run_idx ON application (lineage_root_run_id)
    WHERE lineage_root_run_id IS NOT NULL;
