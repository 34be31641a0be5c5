package io.sparkscope.server.web.model;

import io.sparkscope.server.web.http.Urls;

/**
 * Links from an application to its scheduler, when the operator gave the scheduler's address ({@code serve
 * --airflow-url}). Only the DAG is linked: {@code /dags/<dag_id>} is the DAG's page in Airflow 2.7+ and in Airflow 3
 * alike, while a task's page has another address in each.
 *
 * @param airflowUrl Airflow's base URL (without a trailing slash), or null for no link
 */
public record SchedulerLinks(String airflowUrl) {
    public static final SchedulerLinks NONE = new SchedulerLinks(null);

    public SchedulerLinks {
        airflowUrl = airflowUrl == null || airflowUrl.isBlank() ? null : airflowUrl.strip().replaceAll("/+$", "");
    }

    /** The DAG's page in Airflow, or null without a base URL or DAG. */
    public String airflowDag(String dagId) {
        return airflowUrl == null || dagId == null ? null : airflowUrl + "/dags/" + Urls.enc(dagId);
    }
}
