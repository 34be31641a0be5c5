package io.sparkscope.core.model;

import java.util.regex.Pattern;

/**
 * The name a stage is shown by. Spark names a stage after the call site that submitted it; when that is one of Spark's
 * own closures run on a thread pool (Spark 4 runs SQL jobs through {@code CompletableFuture}, so stages read
 * {@code $anonfun$withThreadLocalCaptured$2 at CompletableFuture.java:1768}), the name says nothing about the user's
 * code. Such a stage is shown by what the user did instead: the description of the SQL query it ran for (the action's
 * call site, or the description the user set), else its job's description, else its job's call site. Every view and
 * report asks here, so a stage has the same name everywhere.
 */
public final class StageNames {
    /**
     * A call site that is Spark's or the JDK's plumbing: a Scala closure name ({@code $anonfun$…}) or a line of the
     * JDK's thread pools.
     */
    private static final Pattern INTERNAL = Pattern.compile(
            "^\\$anonfun\\$.*|.* at (CompletableFuture|FutureTask|ForkJoinTask|ForkJoinWorkerThread|ThreadPoolExecutor"
                    + "|Thread)\\.java(:\\d+)?$", Pattern.DOTALL);

    private StageNames() {
    }

    /** True when the name is a closure or thread-pool call site rather than a place in the user's code. */
    public static boolean isInternal(String name) {
        return name != null && INTERNAL.matcher(name.strip()).matches();
    }

    /**
     * @param name           the stage's name as Spark gave it
     * @param sqlDescription the description of the SQL execution its job ran for, or null
     * @param jobDescription its job's description ({@code spark.job.description}), or null
     * @param jobName        its job's name (the job's call site), or null
     * @return {@code name}, unless it is internal and one of the others says more
     */
    public static String readable(String name, String sqlDescription, String jobDescription, String jobName) {
        if (!isInternal(name) && name != null && !name.isBlank()) {
            return name;
        }
        for (String candidate : new String[]{sqlDescription, jobDescription, jobName}) {
            if (candidate != null && !candidate.isBlank() && !isInternal(candidate)) {
                return candidate.strip();
            }
        }
        return name;
    }

    /** {@link #readable(String, String, String, String)} with the job and SQL execution the snapshot holds. */
    public static String readable(StageSummary stage, AppSnapshot app) {
        if (!isInternal(stage.name()) || stage.jobIds().isEmpty()) {
            return stage.name();
        }
        // The first job is the one that submitted the stage; later ones reuse it.
        int jobId = stage.jobIds().stream().mapToInt(Integer::intValue).min().getAsInt();
        JobSummary job = app.jobs().stream().filter(j -> j.jobId() == jobId).findFirst().orElse(null);
        if (job == null) {
            return stage.name();
        }
        String sql = job.sqlExecutionId() < 0 ? null : app.sqlExecutions().stream()
                .filter(q -> q.executionId() == job.sqlExecutionId())
                .map(SqlExecutionSummary::description).findFirst().orElse(null);
        return readable(stage.name(), sql, job.description(), job.name());
    }
}
