package io.sparkscope.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Who started an application: the scheduler's job and run, as a scheduler passes them in Spark properties.
 * Read from two sources, both plain Spark properties (so an event log and a live listener see the same):
 * <ul>
 *   <li>OpenLineage's parent job and run, which its Spark integration turns into a parent run facet and Airflow's
 *       OpenLineage provider sets (by hand with its macros, or with {@code spark_inject_parent_job_info}):
 *       {@code spark.openlineage.parentJobNamespace}, {@code parentJobName} ({@code <dag_id>.<task_id>} from
 *       Airflow), {@code parentRunId} (the task instance's run, a UUID), and since OpenLineage 1.31 the root job
 *       {@code rootParentJobNamespace}, {@code rootParentJobName} (Airflow: the DAG id), {@code rootParentRunId}
 *       (the DAG run).</li>
 *   <li>Airflow's task labels on a Kubernetes driver ({@code spark.kubernetes.driver.label.dag_id} and
 *       {@code task_id}), which Airflow's Spark Kubernetes operator puts on the SparkApplication it submits.</li>
 * </ul>
 * The DAG and task come apart only where that is certain: from the labels, or when the parent job name is the
 * root job's name, a dot, and the rest (a DAG id and a task id may both hold dots, so a lone parent job name is
 * not split).
 *
 * <p>Values are read defensively: an unrendered template ({@code {{ … }}}), a control character, a value longer
 * than {@link #MAX_LENGTH} or a run id that is not a UUID is ignored, with a warning in {@link #warnings()}.
 *
 * @param namespace     the parent job's OpenLineage namespace (Airflow's {@code [openlineage] namespace})
 * @param job           the parent job's name
 * @param runId         the parent run's id
 * @param rootNamespace the root job's namespace
 * @param rootJob       the root job's name
 * @param rootRunId     the root run's id
 * @param dagId         the Airflow DAG, when known for certain
 * @param taskId        the Airflow task, when known for certain
 * @param warnings      one line per value ignored, naming the property
 */
public record Lineage(String namespace, String job, String runId, String rootNamespace, String rootJob,
                      String rootRunId, String dagId, String taskId, List<String> warnings) {
    public static final String NAMESPACE = "spark.openlineage.parentJobNamespace";
    public static final String JOB = "spark.openlineage.parentJobName";
    public static final String RUN_ID = "spark.openlineage.parentRunId";
    public static final String ROOT_NAMESPACE = "spark.openlineage.rootParentJobNamespace";
    public static final String ROOT_JOB = "spark.openlineage.rootParentJobName";
    public static final String ROOT_RUN_ID = "spark.openlineage.rootParentRunId";
    public static final String DAG_LABEL = "spark.kubernetes.driver.label.dag_id";
    public static final String TASK_LABEL = "spark.kubernetes.driver.label.task_id";
    /** Every property read, for the settings a live snapshot must always carry. */
    public static final List<String> PROPERTIES = List.of(NAMESPACE, JOB, RUN_ID, ROOT_NAMESPACE, ROOT_JOB,
            ROOT_RUN_ID, DAG_LABEL, TASK_LABEL);
    /** Longest value kept: Airflow's DAG and task ids are at most 250 characters each, a job name both and a dot. */
    public static final int MAX_LENGTH = 501;

    public static final Lineage NONE = new Lineage(null, null, null, null, null, null, null, null, List.of());

    /** A run id as OpenLineage and Airflow write it. */
    public static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** Characters shown of an ignored value, so a warning stays one short line. */
    private static final int SHOWN = 40;

    public Lineage {
        warnings = List.copyOf(warnings);
    }

    /** Whether a scheduler's job is known: the job name, or an Airflow DAG and task. */
    public boolean present() {
        return job != null || (dagId != null && taskId != null);
    }

    /** Reads the properties; never throws, whatever they hold. */
    public static Lineage of(Map<String, String> spark) {
        if (spark == null || PROPERTIES.stream().noneMatch(spark::containsKey)) {
            return NONE;
        }
        List<String> warnings = new ArrayList<>(0);
        String namespace = text(spark, NAMESPACE, warnings);
        String job = text(spark, JOB, warnings);
        String runId = uuid(spark, RUN_ID, warnings);
        String rootNamespace = text(spark, ROOT_NAMESPACE, warnings);
        String rootJob = text(spark, ROOT_JOB, warnings);
        String rootRunId = uuid(spark, ROOT_RUN_ID, warnings);
        String dag = text(spark, DAG_LABEL, warnings);
        String task = text(spark, TASK_LABEL, warnings);
        if ((dag == null) != (task == null)) {
            dag = null; // half a pair names no task
            task = null;
        }
        if (dag == null && job != null && rootJob != null && job.length() > rootJob.length() + 1
                && job.startsWith(rootJob) && job.charAt(rootJob.length()) == '.') {
            dag = rootJob;
            task = job.substring(rootJob.length() + 1);
        }
        return new Lineage(namespace, job, runId, rootNamespace, rootJob, rootRunId, dag, task, warnings);
    }

    private static String text(Map<String, String> spark, String key, List<String> warnings) {
        String v = spark.get(key);
        if (v == null) {
            return null;
        }
        v = v.strip();
        if (v.isEmpty()) {
            return null;
        }
        String problem = null;
        if (v.length() > MAX_LENGTH) {
            problem = v.length() + " characters, more than " + MAX_LENGTH;
        } else if (v.contains("{{") || v.contains("{%")) {
            problem = "an unrendered template";
        } else if (v.chars().anyMatch(Character::isISOControl)) {
            problem = "a control character";
        }
        if (problem != null) {
            warnings.add(key + " ignored: " + problem + " (" + shown(v) + ")");
            return null;
        }
        return v;
    }

    private static String uuid(Map<String, String> spark, String key, List<String> warnings) {
        String v = text(spark, key, warnings);
        if (v != null && !UUID.matcher(v).matches()) {
            warnings.add(key + " ignored: not a UUID (" + shown(v) + ")");
            return null;
        }
        return v == null ? null : v.toLowerCase(java.util.Locale.ROOT);
    }

    /** The start of a value, its control characters replaced, for a warning. */
    private static String shown(String v) {
        String s = v.length() > SHOWN ? v.substring(0, SHOWN) + "…" : v;
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return "'" + b + "'";
    }
}
