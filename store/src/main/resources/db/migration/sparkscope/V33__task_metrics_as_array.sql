-- A kept task's metrics as an array of bigint, one element per metric in a fixed order, instead of a jsonb object.
--
-- Task rows are nine tenths of the database's bytes and most of what a write sends. PostgreSQL parsed every row's
-- metrics as JSON: in the COPY of an import's 109 000 kept task rows that parse was 40 % of the statement's time
-- (2.2–2.7 s with jsonb, 1.2–1.5 s with an array, measured on the same rows). The array is also smaller, zeros
-- included: the same rows took 86 MB instead of 142 MB, indexes included.
--
-- Element i (from 1) is the metric at position i of the list below, which is the order of the TaskMetric enum in the
-- code; a test holds the two together. A metric added later goes at the end: rows written before it have a shorter
-- array, and reading past an array's end gives NULL, which every reader takes for 0 (Spark's value for a metric an
-- older version did not report). NULL as a whole still means Spark reported no metrics for the task.
--
-- Converting rewrites the task table once.

CREATE FUNCTION sparkscope_task_metrics_v33(m jsonb) RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN m IS NULL THEN NULL ELSE ARRAY[
        COALESCE((m->>'executorDeserializeTime')::bigint, 0),
        COALESCE((m->>'executorDeserializeCpuTime')::bigint, 0),
        COALESCE((m->>'executorRunTime')::bigint, 0),
        COALESCE((m->>'executorCpuTime')::bigint, 0),
        COALESCE((m->>'resultSize')::bigint, 0),
        COALESCE((m->>'jvmGcTime')::bigint, 0),
        COALESCE((m->>'resultSerializationTime')::bigint, 0),
        COALESCE((m->>'memoryBytesSpilled')::bigint, 0),
        COALESCE((m->>'diskBytesSpilled')::bigint, 0),
        COALESCE((m->>'peakExecutionMemory')::bigint, 0),
        COALESCE((m->>'inputBytes')::bigint, 0),
        COALESCE((m->>'inputRecords')::bigint, 0),
        COALESCE((m->>'outputBytes')::bigint, 0),
        COALESCE((m->>'outputRecords')::bigint, 0),
        COALESCE((m->>'shuffleRemoteBlocksFetched')::bigint, 0),
        COALESCE((m->>'shuffleLocalBlocksFetched')::bigint, 0),
        COALESCE((m->>'shuffleFetchWaitTime')::bigint, 0),
        COALESCE((m->>'shuffleRemoteBytesRead')::bigint, 0),
        COALESCE((m->>'shuffleRemoteBytesReadToDisk')::bigint, 0),
        COALESCE((m->>'shuffleLocalBytesRead')::bigint, 0),
        COALESCE((m->>'shuffleReadRecords')::bigint, 0),
        COALESCE((m->>'shuffleRemoteReqsDuration')::bigint, 0),
        COALESCE((m->>'shuffleCorruptMergedBlockChunks')::bigint, 0),
        COALESCE((m->>'shuffleMergedFetchFallbackCount')::bigint, 0),
        COALESCE((m->>'shuffleMergedRemoteBlocksFetched')::bigint, 0),
        COALESCE((m->>'shuffleMergedLocalBlocksFetched')::bigint, 0),
        COALESCE((m->>'shuffleMergedRemoteChunksFetched')::bigint, 0),
        COALESCE((m->>'shuffleMergedLocalChunksFetched')::bigint, 0),
        COALESCE((m->>'shuffleMergedRemoteBytesRead')::bigint, 0),
        COALESCE((m->>'shuffleMergedLocalBytesRead')::bigint, 0),
        COALESCE((m->>'shuffleMergedRemoteReqsDuration')::bigint, 0),
        COALESCE((m->>'shuffleWriteBytes')::bigint, 0),
        COALESCE((m->>'shuffleWriteTime')::bigint, 0),
        COALESCE((m->>'shuffleWriteRecords')::bigint, 0)
    ] END
$$;

-- A column already of this type (a test that wrote with this code into an older schema) is left as it is.
DO $$
BEGIN
    IF (SELECT data_type FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'task' AND column_name = 'metrics') = 'jsonb' THEN
        ALTER TABLE task ALTER COLUMN metrics TYPE bigint[] USING sparkscope_task_metrics_v33(metrics);
    END IF;
END
$$;

DROP FUNCTION sparkscope_task_metrics_v33(jsonb);

-- The order the elements follow, for a reader in SQL (and for the test that checks it against the code).
CREATE FUNCTION sparkscope_task_metric_names() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
    SELECT ARRAY[
        'executorDeserializeTime', 'executorDeserializeCpuTime', 'executorRunTime', 'executorCpuTime',
        'resultSize', 'jvmGcTime', 'resultSerializationTime', 'memoryBytesSpilled',
        'diskBytesSpilled', 'peakExecutionMemory', 'inputBytes', 'inputRecords',
        'outputBytes', 'outputRecords', 'shuffleRemoteBlocksFetched', 'shuffleLocalBlocksFetched',
        'shuffleFetchWaitTime', 'shuffleRemoteBytesRead', 'shuffleRemoteBytesReadToDisk', 'shuffleLocalBytesRead',
        'shuffleReadRecords', 'shuffleRemoteReqsDuration', 'shuffleCorruptMergedBlockChunks', 'shuffleMergedFetchFallbackCount',
        'shuffleMergedRemoteBlocksFetched', 'shuffleMergedLocalBlocksFetched', 'shuffleMergedRemoteChunksFetched', 'shuffleMergedLocalChunksFetched',
        'shuffleMergedRemoteBytesRead', 'shuffleMergedLocalBytesRead', 'shuffleMergedRemoteReqsDuration', 'shuffleWriteBytes',
        'shuffleWriteTime', 'shuffleWriteRecords'
    ]
$$;
