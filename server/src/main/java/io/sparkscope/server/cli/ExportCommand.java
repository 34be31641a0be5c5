package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.cli.Durations;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.server.web.api.Api;
import io.sparkscope.server.web.api.TableFormat;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.model.WebData;
import io.sparkscope.store.ingest.DatabaseErrors;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppSearchQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code export apps|findings|stages}: the rows the JSON API answers ({@code /api/v1/apps}, its findings and stages)
 * as CSV or JSON lines, for spreadsheets and notebooks. The rows are built by the API's own code, so a column here is
 * a field there.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Export search results (apps), an application's findings or its stages as CSV or JSON lines, "
                + "the rows of the JSON API's /api/v1/apps, /api/v1/apps/<id>/findings and /api/v1/apps/<id>/stages.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:written",
                "2:unknown application, usage error, or a database error"})
public final class ExportCommand implements Callable<Integer> {
    enum What { APPS, FINDINGS, STAGES }

    @Parameters(index = "0", paramLabel = "<what>", description = "apps, findings or stages.")
    String what;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<appId>[/<attemptId>]",
            description = "The application, for findings and stages (without an attempt id: its newest attempt).")
    String app;

    @Option(names = "--format", defaultValue = "csv", paramLabel = "<format>",
            description = "csv or jsonl (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = {"-o", "--out"}, paramLabel = "<file>", description = "Write here instead of to standard output.")
    Path out;

    @Option(names = "--name", paramLabel = "<text>", description = "apps: names containing this.")
    String name;

    @Option(names = "--spark-user", paramLabel = "<user>", description = "apps: run by this Spark user.")
    String user;

    @Option(names = "--severity", paramLabel = "<level>", description = "apps: worst finding high, low or none.")
    String severity;

    @Option(names = "--status", paramLabel = "<status>", description = "apps: running, complete or incomplete.")
    String status;

    @Option(names = "--since", paramLabel = "<duration>", description = "apps: started this long ago or since, e.g. 7d.")
    String since;

    @Option(names = "--limit", paramLabel = "<n>",
            description = "apps: at most this many rows, the newest first (default: every match).")
    Integer limit;

    @Mixin
    DatabaseOptions db;

    @Mixin
    CostOptions cost;

    @Override
    public Integer call() {
        What w = choice("<what>", what, What.class);
        TableFormat f = switch (format.toLowerCase(Locale.ROOT)) {
            case "csv" -> TableFormat.CSV;
            case "jsonl" -> TableFormat.JSONL;
            default -> throw new Main.UsageError("--format: \"" + format + "\" is not one of csv, jsonl");
        };
        if (w == What.APPS && app != null) {
            throw new Main.UsageError("<appId>: apps takes no application; filter with --name, --spark-user, --since …");
        }
        if (w != What.APPS && app == null) {
            throw new Main.UsageError("<appId>: " + w.name().toLowerCase(Locale.ROOT) + " needs the application id");
        }
        if (limit != null && limit < 1) {
            throw new Main.UsageError("--limit: " + limit + " is not a positive number of rows");
        }
        List<?> rows;
        try (HikariDataSource ds = db.open(2)) {
            WebData data = new WebData(ds, System::currentTimeMillis);
            rows = switch (w) {
                case APPS -> apps(data);
                case FINDINGS -> Api.findingRows(data.appFindings(ref(app)));
                case STAGES -> Api.stageRows(data.appStages(ref(app)), TaskDistributions.SPARK_DEFAULT_QUANTILES);
            };
        } catch (SQLException e) {
            throw new Main.UsageError("cannot read " + db.url() + ": " + DatabaseErrors.reason(e));
        } catch (WebException e) {
            throw new Main.UsageError(e.getMessage());
        }
        try (Writer writer = out == null
                ? new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)) {
                    @Override
                    public void close() throws IOException {
                        flush(); // standard output stays open for whoever runs this
                    }
                }
                : Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            f.write(rows, writer);
        } catch (IOException e) {
            throw new Main.UsageError("--out: cannot write " + out + ": " + e.getMessage());
        }
        if (out != null) {
            System.err.println("wrote " + rows.size() + " row(s) to " + out);
        }
        return 0;
    }

    /** Every match, a page at a time in the search's own order (newest first), up to {@code --limit}. */
    private List<?> apps(WebData data) throws SQLException {
        long now = data.now();
        Long from = since == null ? null : now - Durations.parse("--since", since).toMillis();
        String sev = severity == null ? null : switch (severity.toUpperCase(Locale.ROOT)) {
            case "HIGH", "LOW", "NONE" -> severity.toUpperCase(Locale.ROOT);
            default -> throw new Main.UsageError("--severity: \"" + severity + "\" is not one of high, low, none");
        };
        AppFilter.Status st = status == null ? null : choice("--status", status, AppFilter.Status.class);
        List<Object> rows = new ArrayList<>();
        int wanted = limit == null ? Integer.MAX_VALUE : limit;
        while (rows.size() < wanted) {
            int page = Math.min(AppFilter.MAX_LIMIT, wanted - rows.size());
            AppFilter filter = new AppFilter(null, name, user, from, null, null, null, sev, null, st,
                    AppFilter.Sort.START, true, page, rows.size(), now);
            AppSearchQuery.Result r = data.search(filter);
            rows.addAll(Api.appRows(r, cost.prices()));
            if (r.rows().size() < page) {
                break;
            }
        }
        return rows;
    }

    private static AppDetailQuery.Ref ref(String value) {
        int slash = value.indexOf('/');
        String id = slash < 0 ? value : value.substring(0, slash);
        String attempt = slash < 0 ? null : value.substring(slash + 1);
        if (id.isBlank() || attempt != null && attempt.isBlank()) {
            throw new Main.UsageError("<appId>: \"" + value + "\" is not <appId> or <appId>/<attemptId>");
        }
        return new AppDetailQuery.Ref(id, attempt);
    }

    private static <E extends Enum<E>> E choice(String option, String value, Class<E> type) {
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value)) {
                return e;
            }
            names.add(e.name().toLowerCase(Locale.ROOT));
        }
        throw new Main.UsageError(option + ": \"" + value + "\" is not one of " + String.join(", ", names));
    }
}
