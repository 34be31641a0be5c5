package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.JobKey;

/**
 * A job key as the history pages show it: a derived key's parts (name, user, program, kind of cluster manager), or
 * a key the application set with {@code spark.sparkscope.jobKey}.
 *
 * @param configured true when the key is not one Sparkscope derived (so it was set by the application)
 * @param program    main class or script, "" when unknown or configured
 * @param master     local, yarn, k8s, standalone, mesos, or "" when unknown or configured
 */
public record JobView(String key, boolean configured, String name, String user, String program, String master) {

    public static JobView of(String key) {
        String k = key == null ? "" : key;
        String[] parts = k.split(java.util.regex.Pattern.quote(JobKey.SEPARATOR), -1);
        if (parts.length == 4) {
            return new JobView(k, false, parts[0], parts[1], parts[2], parts[3]);
        }
        return new JobView(k, true, k, "", "", "");
    }

    /**
     * "com.example.Etl on yarn, as alice", "the scheduler's OpenLineage job etl.load in namespace default" or "set by
     * spark.sparkscope.jobKey".
     */
    public String description() {
        String scheduled = JobKey.scheduledDescription(key);
        if (scheduled != null) {
            return "the scheduler's " + scheduled;
        }
        if (configured) {
            return "grouped by " + JobKey.CONFIG_KEY + "=" + key;
        }
        StringBuilder b = new StringBuilder();
        b.append(program.isEmpty() ? "program unknown" : program);
        if (!master.isEmpty()) {
            b.append(" on ").append(master);
        }
        if (!user.isEmpty()) {
            b.append(", as ").append(user);
        }
        return b.toString();
    }
}
