package io.sparkscope.store.query;

import io.sparkscope.core.model.StageNames;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What a query of {@code stage_attempt s} adds to show a stage by {@link StageNames#readable}: the description and
 * name of the job that submitted it (its first job) and of that job's SQL execution. One copy, so the stage table,
 * the task list and the timeline name a stage alike.
 */
final class StageNameColumns {
    /** Append to the select list. */
    static final String COLUMNS = ", sn.job_name, sn.job_description, sn.sql_description";

    /** Append after {@code FROM stage_attempt s}. */
    static final String JOIN = " LEFT JOIN LATERAL (SELECT j.name AS job_name, j.description AS job_description,"
            + " q.description AS sql_description FROM job j LEFT JOIN sql_execution q ON q.app_pk = j.app_pk"
            + " AND q.execution_id = j.sql_execution_id AND j.sql_execution_id >= 0"
            + " WHERE j.app_pk = s.app_pk AND j.job_id = (SELECT min(x) FROM unnest(s.job_ids) x)) sn ON true";

    private StageNameColumns() {
    }

    /** The stage's name to show, from a row that selected {@code name} and {@link #COLUMNS}. */
    static String readable(ResultSet rs) throws SQLException {
        return StageNames.readable(rs.getString("name"), rs.getString("sql_description"),
                rs.getString("job_description"), rs.getString("job_name"));
    }
}
