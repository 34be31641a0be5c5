/**
 * What the SQL views compute from a stored execution, apart from how it is shown: the plan graph's layout by the
 * Eclipse Layout Kernel ({@link io.sparkscope.server.web.sql.PlanLayout}) and the layouts kept between pages
 * ({@link io.sparkscope.server.web.sql.PlanPictures}), which findings sit on which node
 * ({@link io.sparkscope.server.web.sql.SqlFindings}), an execution's status as Spark derives it
 * ({@link io.sparkscope.server.web.sql.SqlStatus}) and one query of two runs paired operator by operator
 * ({@link io.sparkscope.server.web.sql.SqlComparison}). Used by {@code model}, {@code page} and {@code api}; depends
 * on none of them.
 */
package io.sparkscope.server.web.sql;
