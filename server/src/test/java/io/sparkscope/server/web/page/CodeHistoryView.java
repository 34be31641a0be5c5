package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.prediction.AdviceLedger;
import io.sparkscope.core.analysis.prediction.KeyStage;
import io.sparkscope.core.analysis.prediction.Prediction;
import io.sparkscope.core.analysis.prediction.PredictionWarning;
import io.sparkscope.core.analysis.prediction.StageKey;
import io.sparkscope.core.analysis.prediction.StageMean;
import io.sparkscope.core.analysis.efficiency.Cost;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.report.EfficiencyText;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.model.RegressionNote;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RecurringJob;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.StoredCost;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.server.web.model.WebData;

import java.util.List;

import java.util.Locale;

/**
 * HistoryView as it was written in code before history*.jte, kept verbatim as the reference the templates' pages
 * are compared with (HistoryTemplateTest). {@code /history?job=…} (or {@code ?name=…} of one job): a chart.js line chart (drawn by /static/history.js from the JSON embedded in the page)
 * plus the same runs as a table, so the page works without JavaScript except the chart; below them a GET form that
 * predicts the run time for an input size from the key stages of the stored runs ({@link RunPrediction}).
 */
final class CodeHistoryView {
    private CodeHistoryView() {
    }

    /**
     * The prediction form's state.
     *
     * @param inputBytes what the user typed (null = nothing asked)
     * @param result     the prediction, or null
     * @param error      why there is no prediction (bad size, no usable run), or null
     */

    /** {@code /history}: the recurring jobs to pick from, and a search by application name. */
    static String jobs(List<RecurringJob> jobs) {
        Html h = Layout.start("History", "History");
        h.raw("<h1>History</h1>");
        nameForm(h);
        h.raw("<section id=\"recurring-jobs\"><h2>Recurring jobs (").t(Fmt.count(jobs.size()))
                .raw(")</h2><p class=\"hint\">Runs are one job when they share name, user, program (main class or"
                        + " script) and kind of cluster, or the same spark.sparkscope.jobKey. Shells and notebooks"
                        + " are no job. Trend: the newest run against the median of the runs before it.</p>");
        if (jobs.isEmpty()) {
            h.raw("<p class=\"empty\">No job has two stored runs yet.</p></section>");
            return Layout.end(h);
        }
        jobTable(h, jobs);
        h.raw("</section>");
        return Layout.end(h);
    }

    /** {@code /history?name=…} when the name is no single job: the jobs to choose from, or why there is none. */
    static String noSingleJob(WebData.JobLookup l) {
        Html h = Layout.start("History of " + l.name(), "History");
        h.raw("<h1>History of <span id=\"history-name\">").t(l.name()).raw("</span></h1>");
        if (l.candidates().isEmpty()) {
            h.raw("<p class=\"empty\" id=\"no-job\">").t(l.noJobSentence()).raw("</p>");
        } else {
            h.raw("<p id=\"several-jobs\">").t(Fmt.count(l.candidates().size(), "job")).raw(" ran under this name;"
                    + " their runs are not compared with each other. Choose one:</p>");
            jobTable(h, l.candidates());
            if (l.interactiveRuns() > 0) {
                h.raw("<p class=\"muted\" id=\"no-job\">").t(l.noJobSentence()).raw("</p>");
            }
        }
        nameForm(h);
        return Layout.end(h);
    }

    private static void nameForm(Html h) {
        h.raw("<div class=\"panel\"><form method=\"get\" action=\"/history\"><label>Application name "
                + "<input type=\"text\" name=\"name\" size=\"50\"></label> <button class=\"btn primary\">Show</button>"
                + "</form><p class=\"muted\">Or open an application and use “History of this job”.</p></div>");
    }

    private static void jobTable(Html h, List<RecurringJob> jobs) {
        h.raw("<div class=\"table-scroll\"><table class=\"grid\" id=\"job-table\"><thead><tr><th>Job</th><th>Program</th><th>User</th>"
                + "<th>Cluster</th><th class=\"num\">Runs</th><th>Last run</th><th class=\"num\">Last duration</th>"
                + "<th>Trend</th></tr></thead><tbody>");
        for (RecurringJob j : jobs) {
            h.raw("<tr class=\"job-row trend-").raw(j.trend().name().toLowerCase(Locale.ROOT)).raw("\" data-job=\"")
                    .a(j.job().key()).raw("\"><td>").link(Urls.historyOfJob(j.job().key()), j.name() == null ? "(no name)"
                    : j.name());
            if (j.job().configured()) {
                h.raw(" <span class=\"muted\">(").t(j.job().key()).raw(")</span>");
            }
            h.raw("</td><td><code>").t(j.job().configured() ? "" : j.job().program()).raw("</code></td><td>")
                    .t(j.user()).raw("</td><td>").t(j.job().master()).raw("</td><td class=\"num\">")
                    .t(Fmt.count(j.runs())).raw("</td><td>").t(Fmt.time(j.lastStart())).raw("</td><td class=\"num\">")
                    .t(j.lastDurationMs() >= 0 ? Fmt.duration(j.lastDurationMs()) : "—").raw("</td><td class=\"trend\">")
                    .t(j.trend() == RecurringJob.Trend.SLOWER ? "▲ " : j.trend() == RecurringJob.Trend.FASTER ? "▼ " : "")
                    .t(j.trendText()).raw("</td></tr>");
        }
        h.raw("</tbody></table></div>");
    }

    static String render(RunHistory hist, String json, HistoryView.PredictForm form) {
        return render(hist, json, form, Prices.NONE);
    }

    /** @param prices the operator's prices for each run's cost; without them each run's core-hours */
    static String render(RunHistory hist, String json, HistoryView.PredictForm form, Prices prices) {
        Html h = Layout.start("History of " + hist.name(), "History");
        h.raw("<h1>History of <span id=\"history-name\">").t(hist.name()).raw("</span></h1><p class=\"muted\""
                + " id=\"job-key\" data-job=\"").a(hist.job().key()).raw("\">Job: ").t(hist.job().description())
                .raw("</p>");
        if (hist.runs().isEmpty()) {
            h.raw("<p class=\"empty\">No run of this job in the database.</p>");
            return Layout.end(h);
        }
        h.raw("<p class=\"muted\">").t(Fmt.count(hist.runs().size(), "run")).raw(", oldest first. Marked ▲: more than ")
                .t(RunHistory.SLOW_FACTOR).raw("× the median duration of the previous runs (a run whose input grew as much is not:"
                        + " \"input grew\"). A Regression says what changed against the run before it. Click a point to open the run.</p>");
        h.raw("<div class=\"chart-box\"><canvas id=\"history-chart\" aria-label=\"run durations\"></canvas></div>");
        h.raw("<script type=\"application/json\" id=\"history-data\">").raw(Html.jsonForScript(json)).raw("</script>");
        h.raw("<script src=\"/webjars/chart.js/4.5.1/dist/chart.umd.min.js\" defer></script>"
                + "<script src=\"/static/history.js\" defer></script>");
        h.raw("<div class=\"table-scroll\"><table class=\"grid\" id=\"history-table\"><thead><tr><th>Run</th><th>Start</th><th class=\"num\">Duration</th>"
                + "<th class=\"num\">Task time</th><th class=\"num\">Input</th><th class=\"num\">Spill</th>")
                .raw(prices.configured() ? "<th class=\"num\">Cost (wasted)</th>"
                        : "<th class=\"num\">Core-hours (idle)</th>")
                .raw("<th>Worst</th><th></th></tr></thead><tbody>");
        for (RunHistory.Point p : hist.runs()) {
            var r = p.run();
            h.raw("<tr").raw(p.slow() ? " class=\"slow\"" : "").raw("><td>").link(Urls.app(r.appId(), r.attemptId()), r.pathKey())
                    .raw("</td><td>").t(Fmt.time(r.startTime())).raw("</td><td class=\"num\">").t(Fmt.duration(r.durationMs()))
                    .raw("</td><td class=\"num\">").t(Fmt.duration(r.totalTaskTimeMs())).raw("</td><td class=\"num input\">")
                    .t(r.inputBytes() > 0 ? Fmt.bytes(r.inputBytes()) : "—").raw("</td><td class=\"num\">")
                    .t(Fmt.bytes(r.memoryBytesSpilled() + r.diskBytesSpilled())).raw("</td>");
            runCost(h, r.efficiency(), prices);
            h.raw("<td>");
            Layout.severity(h, r.worstSeverity());
            h.raw("</td><td>");
            if (p.slow()) {
                h.raw("<span class=\"warn\">▲ slow: median of previous ").t(Fmt.duration(p.previousMedianMs())).raw("</span>");
            }
            if (p.inputGrew()) {
                h.raw("<span class=\"muted input-grew\">").t(RegressionNote.inputGrew(p)).raw("</span>");
            }
            if (p.regression() != null) {
                h.raw("<ul class=\"regression-note\">");
                for (String line : RegressionNote.lines(p.regression())) {
                    h.raw("<li>").t(line).raw("</li>");
                }
                h.raw("</ul>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></div>");
        if (!hist.advice().isEmpty()) {
            h.raw("<section class=\"panel\" id=\"advice-ledger\"><h2>Advice given and what it did</h2>"
                    + "<p class=\"muted\">Settings the findings of a run advised: applied when the next run has another"
                    + " value, then what it saved against what the finding promised (per byte of input when both runs know"
                    + " it). Advice applied that did not help comes after the others in the later runs' \"Fix this"
                    + " first\".</p><div class=\"table-scroll\"><table class=\"grid\"><thead><tr><th>Setting</th><th>Advised in</th><th>Applied in</th>"
                    + "<th class=\"num\">Wall time saved (promised)</th><th class=\"num\">Task time saved (promised)</th>"
                    + "<th>What it did</th></tr></thead><tbody>");
            for (AdviceLedger.Entry e : hist.advice()) {
                h.raw("<tr class=\"advice ").a(e.outcome().name().toLowerCase()).raw("\"><td><code>").t(e.key() + "="
                        + e.recommendedValue()).raw("</code> (was ").t(e.valueThen() == null ? "unset" : e.valueThen())
                        .raw(")</td><td>").t(e.givenIn() + " (" + e.heuristic() + ")").raw("</td><td>")
                        .t(e.applied() ? e.appliedIn() + (e.asAdvised() ? "" : " as " + (e.valueApplied() == null
                                ? "unset" : e.valueApplied())) : "not yet")
                        .raw("</td><td class=\"num\">").t(saved(e, e.savedWallMs())).raw(" (")
                        .t(Fmt.duration(e.promisedWallMs())).raw(")</td><td class=\"num\">").t(saved(e, e.savedTaskMs()))
                        .raw(" (").t(Fmt.duration(e.promisedTaskMs())).raw(")</td><td>").t(e.sentence()).raw("</td></tr>");
            }
            h.raw("</tbody></table></div></section>");
        }
        if (!prices.configured()) {
            h.raw("<p class=\"hint\" id=\"cost-how-to\">No prices set, so core-hours instead of cost: ")
                    .t(EfficiencyView.HOW_TO_PRICE).raw(".</p>");
        }
        predict(h, hist.job().key(), form);
        tune(h, hist.job().key());
        return Layout.end(h);
    }

    /** The link to the settings for the job's next run (/tune), and the same as JSON. */
    private static void tune(Html h, String jobKey) {
        h.raw("<section class=\"panel\" id=\"tune\"><h2>Settings for the next run</h2><p><a class=\"btn primary\""
                + " id=\"tune-link\" href=\"").t(Urls.tune(jobKey)).raw("\" download>Recommended settings (.properties)</a>"
                + " <a id=\"tune-json\" href=\"").t(Urls.tuneApi(jobKey)).raw("\">JSON</a></p><p class=\"hint\">The advice"
                + " of the newest run's findings merged into one file for <code>spark-submit --properties-file</code>: each"
                + " setting with the value in force, why, the saving expected, and the time and cost the executor what-if"
                + " predicts. Also <code>sparkscope tune --job …</code>.</p></section>");
    }

    /** One run's cost and waste at the prices, its core-hours without them, "not computed" without figures. */
    private static void runCost(Html h, AppEfficiency e, Prices prices) {
        if (e == null) {
            h.raw("<td class=\"num muted cost\">not computed</td>");
            return;
        }
        Cost c = StoredCost.of(e, prices);
        if (c != null) {
            h.raw("<td class=\"num cost\" data-cost=\"").a(c.allocated()).raw("\">")
                    .t(EfficiencyText.money(c.allocated(), prices.currency())).raw(" (")
                    .t(EfficiencyText.money(c.wasted(), prices.currency())).raw(")</td>");
        } else {
            h.raw("<td class=\"num cost\" data-core-hours=\"").a(e.coreHoursAllocated()).raw("\">")
                    .t(EfficiencyText.hours(e.coreHoursAllocated())).raw(" (")
                    .t(EfficiencyText.hours(e.coreHoursWasted())).raw(")</td>");
        }
    }

    private static void predict(Html h, String jobKey, HistoryView.PredictForm form) {
        h.raw("<section class=\"panel\" id=\"predict\"><h2>Predict run time</h2>"
                + "<form method=\"get\" action=\"/history#predict\"><input type=\"hidden\" name=\"job\" value=\"")
                .a(jobKey).raw("\"><label>Predict run time for input size <input type=\"text\" "
                        + "name=\"inputBytes\" size=\"20\" placeholder=\"e.g. 1GB, 512m, 10 GiB\" value=\"")
                .a(form.inputBytes() == null ? "" : form.inputBytes())
                .raw("\"></label> <button class=\"btn primary\">Predict</button>"
                        + "<span class=\"hint\"> bytes, or with a unit (binary, as Spark's: 1GB = 1 GiB)</span></form>");
        if (form.error() != null) {
            h.raw("<p class=\"warn\" id=\"predict-error\">").t(form.error()).raw("</p>");
        }
        RunPrediction rp = form.result();
        if (rp == null) {
            h.raw("<p class=\"muted\">From the stored runs of this job (complete, with measured input): key stages "
                    + "(longer than the mean stage, growing with the input more than the others) are fitted linearly "
                    + "against input bytes; the other stages and the start-up/driver time count at their mean. A run "
                    + "whose duration the other runs' line misses badly (a slow first run on cold caches) is left out "
                    + "and named.</p>");
            h.raw("</section>");
            return;
        }
        Prediction p = rp.prediction();
        h.raw("<p id=\"predict-result\">Predicted run time for ").t(Fmt.bytes(p.inputBytes())).raw(" (")
                .t(Fmt.count(p.inputBytes())).raw(" bytes): <strong id=\"predicted-ms\" data-ms=\"").a(p.predictedMs())
                .raw("\">").t(Fmt.duration(p.predictedMs())).raw("</strong>").raw(p.reliable() ? "" : " <span class=\"warn\">(see the warnings)</span>")
                .raw("</p><p class=\"muted\">From ").t(Fmt.count(rp.usedRuns(), "run")).raw(" with inputs ").t(Fmt.bytes(p.minInputBytes()))
                .raw(" – ").t(Fmt.bytes(p.maxInputBytes()));
        if (rp.skippedRuns() > 0) {
            h.raw("; ").t(Fmt.count(rp.skippedRuns(), "run")).raw(" not used (incomplete or no measured input)");
        }
        h.raw(". Start-up, driver and clean-up time: ").t(Fmt.duration(Math.round(p.overheadMs()))).raw(".</p>");
        if (!p.warnings().isEmpty()) {
            h.raw("<ul class=\"predict-warnings\" id=\"predict-warnings\">");
            for (PredictionWarning w : p.warnings()) {
                h.raw("<li class=\"warn\" data-code=\"").a(w.name()).raw("\">").t(RunPrediction.describe(w, p)).raw("</li>");
            }
            h.raw("</ul>");
        }
        h.raw("<table class=\"grid\" id=\"predict-stages\"><thead><tr><th>Stage</th><th>Kind</th><th>Line (ms)</th>"
                + "<th class=\"num\">R²</th><th class=\"num\">Mean so far</th><th class=\"num\">Predicted</th></tr></thead><tbody>");
        for (KeyStage k : p.keyStages()) {
            h.raw("<tr><td>").t(stage(k.key())).raw("</td><td>key</td><td>").t(String.format(Locale.ROOT, "%.1f + %.4g × bytes",
                    k.fit().intercept(), k.fit().slope())).raw("</td><td class=\"num\">")
                    .t(String.format(Locale.ROOT, "%.3f", k.fit().r2())).raw("</td><td class=\"num\">")
                    .t(Fmt.duration(Math.round(k.meanMs()))).raw("</td><td class=\"num\">")
                    .t(Fmt.duration(Math.round(k.predictedMs()))).raw("</td></tr>");
        }
        for (StageMean s : p.otherStages()) {
            h.raw("<tr><td>").t(stage(s.key())).raw("</td><td>mean</td><td></td><td></td><td class=\"num\">")
                    .t(Fmt.duration(Math.round(s.meanMs()))).raw("</td><td class=\"num\">")
                    .t(Fmt.duration(Math.round(s.meanMs()))).raw("</td></tr>");
        }
        h.raw("</tbody></table></section>");
    }

    private static String stage(StageKey k) {
        return "job #" + (k.jobPosition() + 1) + ": " + k.name() + (k.occurrence() > 0 ? " (" + (k.occurrence() + 1) + ")" : "");
    }

    private static String saved(AdviceLedger.Entry e, long ms) {
        return !e.applied() ? "—" : ms >= 0 ? Fmt.duration(ms) : "−" + Fmt.duration(-ms);
    }
}
