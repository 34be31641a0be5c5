package io.sparkscope.core.heuristics;

import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.Locale;
import java.util.Map;

/**
 * Where and in what language an application ran, read from its settings (and, with a snapshot, from what its
 * executors measured). Advice depends on both: Kubernetes gives a Python job 40 % memory overhead where YARN gives
 * 10 %; Databricks sizes each executor from the worker's node type, so the fix for a badly sized executor there is
 * another node type, not {@code spark.executor.memory}. Custom heuristics can read it with {@link #of(AppSnapshot)}.
 *
 * @param manager  the cluster manager, from {@code spark.master}
 * @param service  the managed service that ran the cluster, if one is recognised
 * @param language the language of the application's own code (the JVM, or Python or R driving it)
 * @param nodeType the worker node (instance) type when the service names it (Databricks), else null
 */
public record Platform(Manager manager, Service service, Language language, String nodeType) {

    /** The cluster manager Spark ran under. */
    public enum Manager {
        /** {@code local[...]}: one JVM is driver and executor. */
        LOCAL("local mode"),
        STANDALONE("standalone"),
        YARN("YARN"),
        KUBERNETES("Kubernetes"),
        MESOS("Mesos"),
        UNKNOWN("unknown cluster manager");

        public final String label;

        Manager(String label) {
            this.label = label;
        }
    }

    /** A managed service that sets Spark up on its own terms. */
    public enum Service {
        NONE(""), DATABRICKS("Databricks"), EMR("Amazon EMR"), DATAPROC("Google Dataproc");

        public final String label;

        Service(String label) {
            this.label = label;
        }
    }

    /** The language of the application's code: its Python or R workers live outside the JVM heap. */
    public enum Language {
        JVM("JVM"), PYTHON("PySpark"), R("SparkR");

        public final String label;

        Language(String label) {
            this.label = label;
        }
    }

    /** Kubernetes' overhead factor for JVM applications, and YARN's (and every other manager's). */
    public static final double JVM_OVERHEAD_FACTOR = 0.10;
    /** Kubernetes' overhead factor for Python and R applications when none is set. */
    public static final double NON_JVM_K8S_OVERHEAD_FACTOR = 0.40;

    /** The platform of an application, from its settings and its executors' measured Python workers. */
    public static Platform of(AppSnapshot app) {
        Platform p = of(app.config());
        if (p.language == Language.JVM && pythonWorkersMeasured(app)) {
            return new Platform(p.manager, p.service, Language.PYTHON, p.nodeType);
        }
        return p;
    }

    /** The platform from the settings alone. */
    public static Platform of(AppConfig conf) {
        Map<String, String> spark = conf.sparkProperties();
        Service service = service(conf);
        String node = service == Service.DATABRICKS ? firstSet(spark, "spark.databricks.workerNodeTypeId",
                "spark.databricks.clusterUsageTags.clusterNodeType") : null;
        return new Platform(manager(spark.getOrDefault("spark.master", "")), service, language(conf, service), node);
    }

    private static Manager manager(String master) {
        String m = master.trim().toLowerCase(Locale.ROOT);
        if (m.equals("local") || m.startsWith("local[") || m.startsWith("local-cluster[")) {
            return Manager.LOCAL;
        }
        if (m.startsWith("yarn")) {
            return Manager.YARN;
        }
        if (m.startsWith("k8s://")) {
            return Manager.KUBERNETES;
        }
        if (m.startsWith("spark://")) {
            return Manager.STANDALONE;
        }
        if (m.startsWith("mesos://")) {
            return Manager.MESOS;
        }
        return Manager.UNKNOWN;
    }

    private static Service service(AppConfig conf) {
        Map<String, String> spark = conf.sparkProperties();
        for (String k : spark.keySet()) {
            if (k.startsWith("spark.databricks.")) {
                return Service.DATABRICKS;
            }
        }
        if (spark.getOrDefault("spark.home", "").startsWith("/databricks/")) {
            return Service.DATABRICKS;
        }
        // EMR writes its per-instance-type executor defaults under spark.emr.default.*, and puts EMRFS on the paths
        for (String k : spark.keySet()) {
            if (k.startsWith("spark.emr.") || k.startsWith("spark.sql.emr.")) {
                return Service.EMR;
            }
        }
        if (spark.getOrDefault("spark.driver.extraClassPath", "").contains("/usr/share/aws/emr/")
                || conf.hadoopProperties().getOrDefault("fs.s3.impl", "").contains(".emr.")) {
            return Service.EMR;
        }
        for (String k : spark.keySet()) {
            if (k.startsWith("spark.dataproc.")) {
                return Service.DATAPROC;
            }
        }
        for (String k : conf.hadoopProperties().keySet()) {
            if (k.startsWith("dataproc.") || k.startsWith("fs.gs.") && k.contains("dataproc")) {
                return Service.DATAPROC;
            }
        }
        return Service.NONE;
    }

    private static Language language(AppConfig conf, Service service) {
        Map<String, String> spark = conf.sparkProperties();
        String k8sType = spark.getOrDefault("spark.kubernetes.resource.type", "").trim().toLowerCase(Locale.ROOT);
        if (k8sType.equals("python")) {
            return Language.PYTHON;
        }
        if (k8sType.equals("r")) {
            return Language.R;
        }
        String command = conf.systemProperties().getOrDefault("sun.java.command", "");
        if (command.contains("org.apache.spark.deploy.PythonRunner") || command.contains("pyspark-shell")
                || !spark.getOrDefault("spark.submit.pyFiles", "").isBlank()
                || !spark.getOrDefault("spark.executor.pyspark.memory", "").isBlank()
                || spark.keySet().stream().anyMatch(k -> k.startsWith("spark.pyspark."))) {
            return Language.PYTHON;
        }
        if (command.contains("org.apache.spark.deploy.RRunner") || command.contains("sparkr-shell")
                || spark.containsKey("spark.r.command") || spark.containsKey("spark.r.driver.command")
                || !spark.getOrDefault("spark.submit.rFiles", "").isBlank()) {
            return Language.R;
        }
        // Databricks sets spark.r.* on every cluster, so elsewhere only do these keys say the application is R
        if (service != Service.DATABRICKS && spark.keySet().stream().anyMatch(k -> k.startsWith("spark.r."))) {
            return Language.R;
        }
        return Language.JVM;
    }

    private static boolean pythonWorkersMeasured(AppSnapshot app) {
        for (ExecutorSummary e : app.executors()) {
            Long rss = e.peakMetrics().get(ExecutorMetric.PROCESS_TREE_PYTHON_RSS_MEMORY.sparkName);
            if (rss != null && rss > 0) {
                return true;
            }
        }
        return false;
    }

    private static String firstSet(Map<String, String> spark, String... keys) {
        for (String k : keys) {
            String v = spark.get(k);
            if (v != null && !v.isBlank()) {
                return v.trim();
            }
        }
        return null;
    }

    public boolean local() {
        return manager == Manager.LOCAL;
    }

    public boolean kubernetes() {
        return manager == Manager.KUBERNETES;
    }

    public boolean yarn() {
        return manager == Manager.YARN;
    }

    public boolean databricks() {
        return service == Service.DATABRICKS;
    }

    public boolean emr() {
        return service == Service.EMR;
    }

    /** Python or R code runs beside the JVM, in workers whose memory is outside the heap. */
    public boolean nonJvm() {
        return language != Language.JVM;
    }

    /**
     * The service, not the application, sizes each executor: on Databricks one executor takes a whole worker node,
     * and its cores and memory follow from the node type. Advice names a node type there, not executor settings.
     */
    public boolean executorsSizedByNodeType() {
        return databricks();
    }

    /**
     * The memory overhead factor this platform uses when neither {@code spark.executor.memoryOverheadFactor} nor
     * {@code spark.kubernetes.memoryOverheadFactor} is set: 0.4 for Python and R jobs on Kubernetes (their workers
     * live in the overhead), else 0.1.
     */
    public double defaultOverheadFactor() {
        return kubernetes() && nonJvm() ? NON_JVM_K8S_OVERHEAD_FACTOR : JVM_OVERHEAD_FACTOR;
    }

    /** One line for reports: "Kubernetes, PySpark", "Databricks (node type r5.8xlarge) on standalone, JVM". */
    public String describe() {
        StringBuilder s = new StringBuilder();
        if (service != Service.NONE) {
            s.append(service.label);
            if (nodeType != null) {
                s.append(" (node type ").append(nodeType).append(')');
            }
            s.append(" on ");
        }
        return s.append(manager.label).append(", ").append(language.label).toString();
    }
}
