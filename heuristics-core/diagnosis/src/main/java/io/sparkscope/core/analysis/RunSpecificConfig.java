package io.sparkscope.core.analysis;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Configuration keys whose values Spark or the cluster manager makes anew for every run: ids, start times, the
 * driver's host and ports, pod names, the web proxy's addresses. They differ between any two runs, so a comparison
 * that listed them would bury the settings someone changed; the run comparison and the Regression finding leave them out.
 */
public final class RunSpecificConfig {
    private static final Set<String> KEYS = Set.of(
            "spark.app.id", "spark.app.attempt.id", "spark.app.startTime", "spark.app.submitTime",
            "spark.driver.host", "spark.driver.port", "spark.driver.bindAddress", "spark.driver.appUIAddress",
            "spark.ui.port", "spark.blockManager.port", "spark.driver.blockManager.port", "spark.executor.id",
            "spark.sql.execution.id", "spark.sql.execution.root.id", "spark.repl.class.uri",
            "spark.repl.class.outputDir", "spark.app.initial.jar.urls", "spark.app.initial.file.urls",
            "spark.app.initial.archive.urls", "spark.ui.proxyBase", "spark.kubernetes.driver.pod.name",
            "spark.kubernetes.executor.podNamePrefix", "spark.kubernetes.submission.waitAppCompletion.appId",
            "spark.yarn.app.id", "spark.yarn.app.container.log.dir", "spark.yarn.cache.timestamps",
            "spark.yarn.cache.sizes", "spark.yarn.cache.filenames", "spark.yarn.cache.visibilities",
            "spark.yarn.cache.types", "spark.yarn.cache.confArchive",
            // the driver pod's address, which Kubernetes hands every new pod
            "spark.executorEnv.SPARK_DRIVER_POD_IP");

    /**
     * The YARN web proxy filter's parameters (PROXY_HOSTS, PROXY_URI_BASES, RM_HA_URLS) name the run's own URLs; the
     * Kubernetes Spark operator labels each pod with the submission's own id, and Spark with the application's.
     */
    private static final Pattern PATTERNS = Pattern.compile(
            "spark\\.org\\.apache\\.hadoop\\.yarn\\.server\\.webproxy\\.amfilter\\.AmIpFilter\\.param\\..*"
                    + "|spark\\.kubernetes\\.(driver|executor)\\.(label|annotation)\\."
                    + "(sparkoperator\\.k8s\\.io/submission-id|spark-app-selector)"
                    + "|spark\\.[a-zA-Z.]*\\.port\\.ephemeral|spark\\.sql\\.execution\\.[a-zA-Z.]*\\.id");

    private RunSpecificConfig() {
    }

    public static boolean isRunSpecific(String key) {
        return KEYS.contains(key) || PATTERNS.matcher(key).matches();
    }
}
