package io.sparkscope.store.query;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * An application's stored efficiency figures (resources, not money): what its executors held against what they
 * used. One GB is a GiB. A page prices them with the operator's prices when it shows them.
 *
 * @param coreHoursAllocated   Σ executor lifetime × cores
 * @param coreHoursUsed        Σ task time × {@code spark.task.cpus}
 * @param coreHoursWasted      allocated − used (idle cores)
 * @param coreHoursDriverAlone core-hours held while no task ran anywhere (only the driver worked)
 * @param gbHoursAllocated     Σ executor lifetime × container memory
 * @param gbHoursPeakUsed      Σ lifetime × peak memory over the executors Spark measured; null when it measured none
 * @param gbHoursWasted        allocated − peak used over the measured executors; null when none was measured
 * @param gbHoursDriverAlone   GB-hours held while only the driver worked
 * @param driverAloneMs        wall time in which no task ran
 */
public record AppEfficiency(double coreHoursAllocated, double coreHoursUsed, double coreHoursWasted,
                            double coreHoursDriverAlone, double gbHoursAllocated, Double gbHoursPeakUsed,
                            Double gbHoursWasted, double gbHoursDriverAlone, long driverAloneMs) {

    /** The columns {@link #read} reads, for a SELECT list. */
    public static final String COLUMNS = "core_hours_allocated, core_hours_used, core_hours_wasted,"
            + " core_hours_driver_alone, gb_hours_allocated, gb_hours_peak_used, gb_hours_wasted,"
            + " gb_hours_driver_alone, driver_alone_ms";

    /** Whether Spark measured the memory of at least one executor: the memory waste is known. */
    public boolean memoryMeasured() {
        return gbHoursWasted != null;
    }

    /** Idle share of the allocated core-hours; 0 without allocation. */
    public double coreWasteShare() {
        return coreHoursAllocated > 0 ? coreHoursWasted / coreHoursAllocated : 0;
    }

    /** Share of the allocated core-hours held while only the driver worked. */
    public double coreDriverAloneShare() {
        return coreHoursAllocated > 0 ? coreHoursDriverAlone / coreHoursAllocated : 0;
    }

    /** Share of the allocated GB-hours held while only the driver worked. */
    public double memoryDriverAloneShare() {
        return gbHoursAllocated > 0 ? gbHoursDriverAlone / gbHoursAllocated : 0;
    }

    /**
     * The figures on the current row, or null when they were never computed (stored before they existed). Every query
     * selects {@link #COLUMNS} together and in their order, so one name look-up finds the first and the rest follow.
     */
    static AppEfficiency read(ResultSet rs) throws SQLException {
        return read(rs, rs.findColumn("core_hours_allocated"));
    }

    /**
     * As {@link #read(ResultSet)} where {@link #COLUMNS} stand in the select list from column {@code first} on: by
     * position, for the search page, which reads all its columns so.
     */
    static AppEfficiency read(ResultSet rs, int first) throws SQLException {
        double coreAllocated = rs.getDouble(first);
        if (rs.wasNull()) {
            return null;
        }
        return new AppEfficiency(coreAllocated, rs.getDouble(first + 1), rs.getDouble(first + 2),
                rs.getDouble(first + 3), rs.getDouble(first + 4), nullable(rs, first + 5), nullable(rs, first + 6),
                rs.getDouble(first + 7), rs.getLong(first + 8));
    }

    private static Double nullable(ResultSet rs, int column) throws SQLException {
        double v = rs.getDouble(column);
        return rs.wasNull() ? null : v;
    }
}
