-- SQL executions as Spark's SQL tab shows them: the plan graph's nodes (operators and whole-stage-codegen clusters,
-- with Spark's node ids), its edges, each node's metrics aggregated over the execution's tasks, and which stages ran
-- which node. The plan tree itself stays in sql_execution.plan; these rows are what views and plain SQL query
-- ("which operators did stage 14 run?") without rebuilding the graph. Executions stored before this version have
-- no rows here until their application is written again.

ALTER TABLE sql_execution
    ADD COLUMN stage_ids integer[] NOT NULL DEFAULT '{}';  -- the stages of its jobs, in Spark's order

CREATE TABLE sql_plan_node (
    app_pk       bigint    NOT NULL,
    execution_id bigint    NOT NULL,
    node_id      bigint    NOT NULL,                      -- Spark's id, as in its REST API
    name         text      NOT NULL,
    description  text      NOT NULL,                      -- Spark's one-line simpleString
    is_cluster   boolean   NOT NULL,                      -- a WholeStageCodegen cluster around other nodes
    cluster_id   bigint    NOT NULL,                      -- the cluster holding this node, -1 when none
    codegen_id   bigint    NOT NULL,                      -- a cluster's wholeStageCodegenId, -1 otherwise
    stage_ids    integer[] NOT NULL,                      -- stages that ran it, ascending; empty when unknown
    PRIMARY KEY (app_pk, execution_id, node_id),
    FOREIGN KEY (app_pk, execution_id) REFERENCES sql_execution (app_pk, execution_id) ON DELETE CASCADE
);
-- "Which query and operators did this stage run" reads one application's nodes by the primary key's app_pk prefix
-- and filters on stage_ids: a few hundred rows, no index of its own worth its write cost.

CREATE TABLE sql_plan_edge (
    app_pk       bigint  NOT NULL,
    execution_id bigint  NOT NULL,
    ord          integer NOT NULL,                        -- Spark's order of edges
    from_id      bigint  NOT NULL,                        -- child (data flows from it)
    to_id        bigint  NOT NULL,
    PRIMARY KEY (app_pk, execution_id, ord),
    FOREIGN KEY (app_pk, execution_id) REFERENCES sql_execution (app_pk, execution_id) ON DELETE CASCADE
);

-- One metric a node declares, with its aggregate over tasks (NULL columns: nothing reported it). node_id -1 holds
-- aggregates of accumulators no drawn node declares, so reading back loses none.
CREATE TABLE sql_node_metric (
    app_pk               bigint    NOT NULL,
    execution_id         bigint    NOT NULL,
    node_id              bigint    NOT NULL,
    ord                  integer   NOT NULL,              -- position among the node's metrics
    accumulator_id       bigint    NOT NULL,
    name                 text,
    metric_type          text      NOT NULL,              -- sum, size, timing, nsTiming, average, v2Custom_…
    total                bigint,
    value_count          bigint,
    min_value            bigint,
    median_value         bigint,
    lower_median_value   bigint,
    max_value            bigint,
    max_stage_id         integer,                         -- -1: Spark names the driver
    max_stage_attempt_id integer,
    max_task_id          bigint,
    reported_values      bigint,
    exact                boolean,                         -- false: median estimated within 1 %
    value_stage_ids      integer[],                       -- stages whose tasks reported it
    PRIMARY KEY (app_pk, execution_id, node_id, ord),
    FOREIGN KEY (app_pk, execution_id) REFERENCES sql_execution (app_pk, execution_id) ON DELETE CASCADE
);
