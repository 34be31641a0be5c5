package io.sparkscope.core.analysis;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.Lineage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What makes runs "the same job" for history, Regression and prediction. An application name alone does not: 25
 * unrelated "Spark shell" sessions of different users and years are not one job's runs, and two teams can call their
 * jobs "etl". By default the key is derived from what a recurring job keeps from run to run:
 * <ul>
 *   <li>the application name and the user it runs as;</li>
 *   <li>the program: the main class ({@code --class}), else the primary resource's file name (the jar, or the
 *       {@code .py}/{@code .R} script), read from the driver's {@code sun.java.command} as spark-submit, YARN's
 *       ApplicationMaster or the standalone DriverWrapper wrote it. Its arguments are left out: a daily job gets
 *       another date every day;</li>
 *   <li>the kind of cluster manager: local, yarn, k8s, standalone, mesos (not the host, which moves).</li>
 * </ul>
 * YARN application tags are left out on purpose: schedulers such as Oozie put a per-run id there.
 *
 * <p>A run a scheduler started says which of its jobs it is ({@link Lineage}: OpenLineage's parent job, as Airflow
 * passes {@code <dag_id>.<task_id>}, or Airflow's task labels on a Kubernetes driver). That job is the key, before
 * anything derived from names: runs of one Airflow task are one job even when each run names its application
 * differently, and a scheduled notebook or Python process is a job, not an interactive session. The key is the
 * job name then its namespace ({@code etl.load | openlineage default}), or {@code <dag_id>.<task_id> | airflow}.
 *
 * <p>{@code spark.sparkscope.jobKey} set on the application overrides all this (e.g. {@code --conf
 * spark.sparkscope.jobKey=nightly-orders}): runs with the same value are one job, whatever their names.
 *
 * <p>Interactive sessions are never compared by name alone: the Spark shell, the pyspark and SparkR shells, the
 * spark-sql CLI, the Thrift/JDBC server, Spark Connect, and notebooks (Zeppelin, Jupyter, Livy, Toree, Databricks),
 * recognised by their main class, primary resource, REPL settings or default names. They get no key (no history, no
 * Regression) unless {@code spark.sparkscope.jobKey} gives them one.
 *
 * @param value  the key runs are grouped by; null for an interactive session without a configured key
 * @param source where the key comes from
 * @param reason for an interactive session, what gave it away ("main class org.apache.spark.repl.Main"); else empty
 */
public record JobKey(String value, Source source, String reason) {
    /** The application setting that names the job explicitly. */
    public static final String CONFIG_KEY = "spark.sparkscope.jobKey";
    /** Longest key kept; the store indexes it. */
    public static final int MAX_LENGTH = 500;
    /** Between the parts of a derived key: name, user, program, master kind. */
    public static final String SEPARATOR = " | ";

    /** A scheduled key's second part, before the OpenLineage namespace: "etl.load | openlineage default". */
    public static final String OPENLINEAGE = "openlineage ";
    /** A scheduled key's second part when Airflow's task labels named the job: "etl.load | airflow". */
    public static final String AIRFLOW = "airflow";

    /**
     * What a scheduled key says about its job, for pages: "OpenLineage job etl.load in namespace default", or null
     * when the key is not a scheduled one.
     */
    public static String scheduledDescription(String value) {
        if (value == null) {
            return null;
        }
        int sep = value.lastIndexOf(SEPARATOR);
        if (sep <= 0 || value.indexOf(SEPARATOR) != sep) {
            return null; // derived keys have four parts, scheduled ones two
        }
        String job = value.substring(0, sep);
        String rest = value.substring(sep + SEPARATOR.length());
        if (rest.equals(AIRFLOW)) {
            return "Airflow task " + job;
        }
        if (rest.startsWith(OPENLINEAGE)) {
            String ns = rest.substring(OPENLINEAGE.length());
            return "OpenLineage job " + job + (ns.isEmpty() ? "" : " in namespace " + ns);
        }
        return null;
    }

    /** Where a key comes from. */
    public enum Source {
        /** {@code spark.sparkscope.jobKey} was set. */
        CONFIGURED,
        /** The scheduler's job the run belongs to (OpenLineage's parent job, or Airflow's DAG and task). */
        SCHEDULED,
        /** Derived from name, user, program and master kind. */
        DERIVED,
        /** An interactive session or notebook: no key. */
        INTERACTIVE
    }

    /** Main classes of shells, SQL front ends and notebook servers: one JVM serving whatever a person types. */
    private static final List<String> INTERACTIVE_MAIN_PREFIXES = List.of(
            "org.apache.spark.repl.",                                   // spark-shell
            "org.apache.spark.sql.hive.thriftserver.",                  // spark-sql CLI, Thrift/JDBC server
            "org.apache.spark.sql.connect.service.",                    // Spark Connect server
            "org.apache.spark.api.python.PythonGatewayServer",         // pyspark driver for a Python process
            "org.apache.spark.api.r.RBackend",                          // SparkR
            "org.apache.zeppelin.",                                     // Zeppelin interpreter
            "org.apache.livy.",                                         // Livy sessions (sparkmagic, Jupyter)
            "com.cloudera.livy.",
            "org.apache.toree.",                                        // Toree (Jupyter Scala kernel)
            "com.databricks.backend.daemon.driver.");                   // Databricks notebooks and jobs alike
    /** spark-submit's primary resources for the shells. */
    private static final Set<String> SHELL_RESOURCES = Set.of("spark-shell", "pyspark-shell", "sparkr-shell",
            "pyspark-shell-main", "sparkr-shell-main");
    /** Names shells and notebooks give themselves (lower case). */
    private static final Set<String> INTERACTIVE_NAMES = Set.of("spark shell", "pysparkshell", "pyspark-shell",
            "sparkr", "thrift jdbc/odbc server", "spark connect server", "zeppelin", "databricks shell");
    private static final List<String> INTERACTIVE_NAME_PREFIXES = List.of("sparksql::", "livy-session-",
            "zeppelin_", "zeppelin-", "jupyter");
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** spark-submit options that take a value (SparkSubmitOptionParser), so the value is not the primary resource. */
    private static final Set<String> SUBMIT_OPTIONS_WITH_VALUE = Set.of("--archives", "--class", "--conf", "-c",
            "--deploy-mode", "--driver-class-path", "--driver-cores", "--driver-java-options", "--driver-library-path",
            "--driver-memory", "--executor-cores", "--executor-memory", "--exclude-packages", "--files", "--jars",
            "--keytab", "--kill", "--master", "--name", "--num-executors", "--packages", "--principal",
            "--properties-file", "--proxy-user", "--py-files", "--queue", "--remote", "--repositories", "--status",
            "--total-executor-cores");

    public JobKey {
        if (value != null) {
            value = value.strip();
            if (value.isEmpty()) {
                value = null;
            } else if (value.length() > MAX_LENGTH) {
                value = value.substring(0, MAX_LENGTH);
            }
        }
        reason = reason == null ? "" : reason;
    }

    /** A key as a short name for messages: a derived key's application name, a configured key itself. */
    public static String displayName(String value) {
        if (value == null) {
            return null;
        }
        int sep = value.indexOf(SEPARATOR);
        return sep > 0 ? value.substring(0, sep) : value;
    }

    /** Whether runs with this key form a history (false for an interactive session). */
    public boolean recurring() {
        return value != null;
    }

    /** The key of a recorded application. */
    public static JobKey of(AppSnapshot s) {
        return of(s.appName(), s.sparkUser(), s.config().sparkProperties(), s.config().systemProperties());
    }

    /**
     * @param spark  the application's Spark properties
     * @param system its driver's Java system properties (for {@code sun.java.command}); may be empty
     */
    public static JobKey of(String appName, String user, Map<String, String> spark, Map<String, String> system) {
        // Reads only the settings AppConfig#jobIdentity keeps: add a key there when this reads a new one.
        String configured = spark.get(CONFIG_KEY);
        if (configured != null && !configured.isBlank()) {
            return new JobKey(configured, Source.CONFIGURED, "");
        }
        Lineage lineage = Lineage.of(spark);
        if (lineage.job() != null) {
            String ns = lineage.namespace() == null ? "" : lineage.namespace();
            return new JobKey(lineage.job() + SEPARATOR + OPENLINEAGE + ns, Source.SCHEDULED, "");
        }
        if (lineage.present()) {
            return new JobKey(lineage.dagId() + "." + lineage.taskId() + SEPARATOR + AIRFLOW, Source.SCHEDULED, "");
        }
        String name = appName == null ? "" : appName.strip();
        Command cmd = Command.parse(system.get("sun.java.command"));
        String interactive = interactive(name, cmd, spark);
        if (interactive != null) {
            return new JobKey(null, Source.INTERACTIVE, interactive);
        }
        String program = cmd.mainClass() != null ? cmd.mainClass() : cmd.primaryResource() == null ? ""
                : SHELL_RESOURCES.contains(cmd.primaryResource()) ? "python" : fileName(cmd.primaryResource());
        String value = String.join(SEPARATOR, name, user == null ? "" : user.strip(), program,
                masterKind(spark.get("spark.master")));
        return new JobKey(value, Source.DERIVED, "");
    }

    /** What shows the application is an interactive session, or null. */
    private static String interactive(String name, Command cmd, Map<String, String> spark) {
        for (String main : new String[]{cmd.mainClass(), cmd.jvmMain()}) {
            if (main != null) {
                for (String prefix : INTERACTIVE_MAIN_PREFIXES) {
                    if (main.startsWith(prefix)) {
                        return "main class " + main;
                    }
                }
            }
        }
        if (cmd.primaryResource() != null && SHELL_RESOURCES.contains(cmd.primaryResource())) {
            // A Python process that is not a shell (a notebook kernel or a script run with `python`) launches its
            // JVM the same way: its name is then all there is, so only a name of its own makes it a job.
            if (!cmd.primaryResource().startsWith("pyspark") || defaultName(name)) {
                return "started as " + cmd.primaryResource();
            }
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (INTERACTIVE_NAMES.contains(lower)) {
            return "named '" + name + "'";
        }
        for (String prefix : INTERACTIVE_NAME_PREFIXES) {
            if (lower.startsWith(prefix)) {
                return "named '" + name + "'";
            }
        }
        if (spark.containsKey("spark.repl.class.uri") || spark.containsKey("spark.repl.class.outputDir")) {
            return "a Scala REPL (spark.repl.class.uri)";
        }
        if (name.isEmpty() || UUID.matcher(name).matches()) {
            return name.isEmpty() ? "no name" : "a random name (no appName was set)";
        }
        return null;
    }

    private static boolean defaultName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return name.isEmpty() || INTERACTIVE_NAMES.contains(lower) || UUID.matcher(name).matches();
    }

    /** local, yarn, k8s, standalone, mesos; "" when unknown (unset, or redacted). */
    static String masterKind(String master) {
        if (master == null || master.isBlank()) {
            return "";
        }
        String m = master.strip().toLowerCase(Locale.ROOT);
        if (m.startsWith("local")) {
            return "local";
        }
        if (m.startsWith("yarn")) {
            return "yarn";
        }
        if (m.startsWith("k8s://")) {
            return "k8s";
        }
        if (m.startsWith("spark://")) {
            return "standalone";
        }
        if (m.startsWith("mesos://")) {
            return "mesos";
        }
        return "";
    }

    private static String fileName(String resource) {
        String r = resource;
        int q = r.indexOf('?');
        if (q >= 0) {
            r = r.substring(0, q);
        }
        int slash = r.lastIndexOf('/');
        return slash >= 0 && slash < r.length() - 1 ? r.substring(slash + 1) : r;
    }

    /**
     * The driver's command line as the JVM reports it ({@code sun.java.command}: the main class, then its arguments,
     * joined by spaces).
     *
     * @param jvmMain         the JVM's own main class (SparkSubmit, ApplicationMaster, DriverWrapper, or the user's)
     * @param mainClass       the user's main class, when the command names one
     * @param primaryResource the jar or script run, or spark-submit's marker for a shell
     */
    record Command(String jvmMain, String mainClass, String primaryResource) {
        static final Command NONE = new Command(null, null, null);

        static Command parse(String command) {
            if (command == null || command.isBlank() || command.contains("(redacted)")) {
                return NONE;
            }
            String[] t = command.strip().split("\\s+");
            String jvm = t[0];
            if (jvm.endsWith("deploy.SparkSubmit")) {
                return submit(jvm, t);
            }
            if (jvm.endsWith("ApplicationMaster")) {
                return applicationMaster(jvm, t);
            }
            if (jvm.endsWith("deploy.worker.DriverWrapper")) {
                // DriverWrapper <worker url> <user jar> <main class> <args…>
                return new Command(jvm, t.length > 3 ? t[3] : null, t.length > 2 ? t[2] : null);
            }
            // Launched without spark-submit: the JVM's main class (or `java -jar x.jar`'s jar) is the program.
            return jvm.endsWith(".jar") ? new Command(jvm, null, jvm) : new Command(jvm, jvm, null);
        }

        private static Command submit(String jvm, String[] t) {
            String main = null;
            for (int i = 1; i < t.length; i++) {
                String a = t[i];
                if (a.startsWith("--") && a.contains("=")) {
                    if (a.startsWith("--class=")) {
                        main = a.substring("--class=".length());
                    }
                    continue;
                }
                if (SUBMIT_OPTIONS_WITH_VALUE.contains(a)) {
                    if (a.equals("--class") && i + 1 < t.length) {
                        main = t[i + 1];
                    }
                    i++;
                    continue;
                }
                if (a.startsWith("-")) {
                    continue; // a switch (--verbose, --supervise), or a JVM option inside a value with spaces
                }
                // The command line is joined with spaces, so "--name My Job" leaves "Job" behind: only a token
                // that looks like a jar, a script or a shell marker is taken for the program.
                if (looksLikeResource(a)) {
                    return new Command(jvm, runner(main) ? null : main, a);
                }
            }
            return new Command(jvm, runner(main) ? null : main, null);
        }

        private static boolean looksLikeResource(String token) {
            String lower = token.toLowerCase(Locale.ROOT);
            return SHELL_RESOURCES.contains(token) || token.equals("spark-internal") || lower.endsWith(".jar")
                    || lower.endsWith(".py") || lower.endsWith(".r") || lower.endsWith(".zip")
                    || lower.endsWith(".egg") || token.contains("/");
        }

        /** Spark's own runner of a Python or R program: the script names the job, not the runner. */
        private static boolean runner(String main) {
            return main != null && (main.endsWith("deploy.PythonRunner") || main.endsWith("deploy.RRunner"));
        }

        private static Command applicationMaster(String jvm, String[] t) {
            String main = null;
            String resource = null;
            List<String> resources = new ArrayList<>();
            for (int i = 1; i + 1 < t.length; i++) {
                switch (t[i]) {
                    case "--class" -> main = t[++i];
                    case "--jar", "--primary-py-file", "--primary-r-file" -> resources.add(t[++i]);
                    default -> {
                        // other options and their values (--arg, --properties-file) do not name the program
                    }
                }
            }
            if (!resources.isEmpty()) {
                resource = resources.get(resources.size() - 1);
            }
            return new Command(jvm, runner(main) ? null : main, resource);
        }
    }
}
