package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.prediction.StageKey;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.server.web.model.SchedulerLinks;
import io.sparkscope.server.web.model.RecurringJob;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.WebData;

import java.util.List;

/**
 * {@code /history?job=…} (or {@code ?name=…} of one job): a chart.js line chart (drawn by /static/history.js from the JSON embedded in the page)
 * plus the same runs as a table, so the page works without JavaScript except the chart; below them a GET form that
 * predicts the run time for an input size from the key stages of the stored runs ({@link RunPrediction}). The
 * markup is history.jte, historyJobs.jte and historyName.jte.
 */
final class HistoryView {
    private HistoryView() {
    }

    /**
     * The prediction form's state.
     *
     * @param inputBytes what the user typed (null = nothing asked)
     * @param result     the prediction, or null
     * @param error      why there is no prediction (bad size, no usable run), or null
     */
    record PredictForm(String inputBytes, RunPrediction result, String error) {
    }

    /** {@code /history}: the recurring jobs to pick from, and a search by application name. */
    static String jobs(List<RecurringJob> jobs) {
        Html h = new Html(16 * 1024);
        JtehistoryJobsGenerated.render(new PageOutput(h), null, jobs);
        return h.toString();
    }

    /** {@code /history?name=…} when the name is no single job: the jobs to choose from, or why there is none. */
    static String noSingleJob(WebData.JobLookup l) {
        Html h = new Html(16 * 1024);
        JtehistoryNameGenerated.render(new PageOutput(h), null, l);
        return h.toString();
    }

    static String render(RunHistory hist, String json, PredictForm form) {
        return render(hist, json, form, Prices.NONE);
    }

    /** @param prices the operator's prices for each run's cost; without them each run's core-hours */
    static String render(RunHistory hist, String json, PredictForm form, Prices prices) {
        return render(hist, json, form, prices, Lineage.NONE, SchedulerLinks.NONE);
    }

    /**
     * @param lineage the scheduler's job and run of the job's newest run that has them ({@link Lineage#NONE}: none)
     * @param links   links to the scheduler, when its address is known
     */
    static String render(RunHistory hist, String json, PredictForm form, Prices prices, Lineage lineage,
                         SchedulerLinks links) {
        return render(hist, json, form, prices, lineage, links, null);
    }

    /** @param moreRuns the address of this history with more runs, when it shows fewer than the job has; or null */
    static String render(RunHistory hist, String json, PredictForm form, Prices prices, Lineage lineage,
                         SchedulerLinks links, String moreRuns) {
        Html h = new Html(16 * 1024);
        JtehistoryGenerated.render(new PageOutput(h), null, hist,
                PageOutput.markup(out -> out.raw(Html.jsonForScript(json))), form, prices,
                PageOutput.markup(out -> SchedulerView.render(out, lineage, null, links)), moreRuns);
        return h.toString();
    }

    /** A stage of the prediction as "job #2: map at X.scala:10 (2)". */
    static String stage(StageKey k) {
        return "job #" + (k.jobPosition() + 1) + ": " + k.name() + (k.occurrence() > 0 ? " (" + (k.occurrence() + 1) + ")" : "");
    }
}
