package io.sparkscope.server.web.page;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.model.ErrorGroup;
import io.sparkscope.server.web.model.FindingDetails;
import io.sparkscope.server.web.text.Fmt;

import java.util.List;

/**
 * FindingsView as it was written in code before findings.jte, kept verbatim as the reference the template's bytes are
 * compared with (FindingsTemplateTest). The application page's findings: root causes by estimated saving, each with what fixing it would save, its
 * message and advice (each setting with its current and recommended value), where it happened (stage ids linked to
 * the stage and its timeline), its errors grouped by normalised message and its numbers as a labelled table; the
 * findings it causes are collapsed under it.
 */
final class CodeFindingsView {
    private CodeFindingsView() {
    }

    /** The element id of a finding's block (its id with anything but letters, digits, '-' and '_' as '-'). */
    static String anchor(String findingId) {
        return "finding-" + findingId.replaceAll("[^A-Za-z0-9_-]", "-");
    }

    static void render(Html h, Diagnosis d, String appId, String attemptId) {
        h.raw("<section id=\"findings\"><h2>Findings");
        if (d.total() > 0) {
            h.raw(" <span class=\"muted\">(").t(Fmt.count(d.total(), "finding")).raw(", ")
                    .t(Fmt.count(d.roots().size(), "root cause", "root causes")).raw(", largest saving first)</span>");
        }
        h.raw("</h2>");
        if (d.total() == 0) {
            h.raw("<p class=\"ok\">No finding: nothing the heuristics flag.</p>");
        }
        for (Diagnosis.Node n : d.roots()) {
            finding(h, n, appId, attemptId);
        }
        h.raw("</section>");
    }

    private static void finding(Html h, Diagnosis.Node n, String appId, String attemptId) {
        Finding f = n.finding();
        String sev = f.severity().name();
        h.raw("<div class=\"finding ").raw(Fmt.severityClass(sev)).raw(f.causedBy() == null ? "" : " knock-on")
                .raw("\" id=\"").a(anchor(f.id())).raw("\" data-finding=\"").a(f.id()).raw("\" data-heuristic=\"")
                .a(f.heuristic()).raw("\"><h3>");
        Layout.severity(h, sev);
        h.raw(" ").t(f.title().isBlank() ? f.heuristic() : f.title()).raw(" <span class=\"muted\">").t(f.heuristic())
                .raw("</span></h3>");
        saving(h, f.impact());
        h.raw("<p class=\"message\">").t(f.message()).raw("</p>");
        if (!f.recommendation().isBlank()) {
            h.raw("<p class=\"recommendation\"><strong>Try:</strong> ").t(f.recommendation()).raw("</p>");
        }
        advice(h, f.advice());
        where(h, f, appId, attemptId);
        errors(h, ErrorGroup.of(f.stageIds(), f.details()), appId, attemptId);
        details(h, FindingDetails.of(f.heuristic(), f.details()), appId, attemptId);
        if (!n.knockOns().isEmpty()) {
            int all = n.descendants();
            // only the root's list starts closed: once it is opened, the whole chain under it shows
            h.raw("<details class=\"knock-ons\" data-count=\"").t(all).raw(f.causedBy() == null ? "\">" : "\" open>")
                    .raw("<summary>")
                    .t(Fmt.count(all, "knock-on finding", "knock-on findings")).raw(" caused by this: ");
            for (int i = 0; i < n.knockOns().size() && i < 4; i++) {
                Finding k = n.knockOns().get(i).finding();
                h.raw(i == 0 ? "" : "; ").t(k.title().isBlank() ? k.heuristic() : k.title());
            }
            h.raw(n.knockOns().size() > 4 ? "; …" : "").raw("</summary>");
            for (Diagnosis.Node k : n.knockOns()) {
                finding(h, k, appId, attemptId);
            }
            h.raw("</details>");
        }
        h.raw("</div>");
    }

    /** "Fixing it could save about 1 min 10 s of wall time and 42 min of task time (0.7 core-hours)". */
    private static void saving(Html h, Impact i) {
        if (!i.saves()) {
            h.raw("<p class=\"saving none muted\">Saving not estimated: a risk whose cost this run's numbers do not"
                    + " show.</p>");
            return;
        }
        h.raw("<p class=\"saving\" data-wall-ms=\"").t(i.wallMs()).raw("\" data-task-ms=\"").t(i.taskMs())
                .raw("\">Fixing it could save about ");
        if (i.wallMs() > 0) {
            h.raw("<strong>").t(Fmt.duration(i.wallMs())).raw("</strong> of wall time");
            if (i.taskMs() > 0) {
                h.raw(" and ");
            }
        }
        if (i.taskMs() > 0) {
            h.raw("<strong>").t(Fmt.duration(i.taskMs())).raw("</strong> of task time (").t(Fmt.coreHours(i.taskMs()))
                    .raw(")");
        }
        if (!i.basis().isBlank()) {
            h.raw(" <span class=\"muted\">— ").t(i.basis()).raw("</span>");
        }
        h.raw("</p>");
    }

    private static void advice(Html h, List<SettingAdvice> advice) {
        if (advice.isEmpty()) {
            return;
        }
        h.raw("<table class=\"grid small advice\"><thead><tr><th>Setting</th><th>Now</th><th>Try</th><th>Why</th>"
                + "</tr></thead><tbody>");
        for (SettingAdvice a : advice) {
            h.raw("<tr data-key=\"").a(a.key()).raw("\"><td><code>").t(a.key()).raw("</code></td><td>")
                    .t(a.currentText()).raw("</td><td class=\"try\"><code>").t(a.recommendedValue())
                    .raw("</code></td><td>").t(String.join("; ", a.reasons())).raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }

    private static void where(Html h, Finding f, String appId, String attemptId) {
        List<Finding.PlanNodeRef> nodes = f.planNodes();
        if (f.stageIds().isEmpty() && f.executorIds().isEmpty() && f.configKeys().isEmpty() && nodes.isEmpty()) {
            return;
        }
        h.raw("<p class=\"where\">");
        boolean first = true;
        if (!f.stageIds().isEmpty()) {
            h.raw("<span class=\"muted\">").t(f.stageIds().size() == 1 ? "Stage" : "Stages").raw("</span> ");
            stageLinks(h, f.stageIds(), appId, attemptId);
            first = false;
        }
        if (!f.executorIds().isEmpty()) {
            h.raw(first ? "" : " · ").raw("<span class=\"muted\">")
                    .t(f.executorIds().size() == 1 ? "Executor" : "Executors").raw("</span> ");
            executorLinks(h, f.executorIds(), appId, attemptId);
            first = false;
        }
        if (!nodes.isEmpty()) {
            h.raw(first ? "" : " · ").raw("<span class=\"muted\">").t(nodes.size() == 1 ? "Operator" : "Operators")
                    .raw("</span> ");
            for (int k = 0; k < nodes.size() && k < 50; k++) {
                Finding.PlanNodeRef r = nodes.get(k);
                h.raw(k > 0 ? ", " : "").raw("<a class=\"operator-link\" data-node=\"")
                        .a(r.sqlExecutionId() + ":" + r.nodeId()).raw("\" href=\"")
                        .a(Links.operator(appId, attemptId, r.sqlExecutionId(), r.nodeId())).raw("\">")
                        .t(r.nodeName() == null || r.nodeName().isBlank() ? "node " + r.nodeId() : r.nodeName().strip())
                        .raw("</a> <span class=\"muted\">(SQL ").t(r.sqlExecutionId()).raw(")</span>");
            }
            first = false;
        }
        if (!f.configKeys().isEmpty()) {
            h.raw(first ? "" : " · ").raw("<span class=\"muted\">Settings</span> ");
            for (int i = 0; i < f.configKeys().size(); i++) {
                h.raw(i == 0 ? "" : ", ").raw("<code>").t(f.configKeys().get(i)).raw("</code>");
            }
        }
        h.raw("</p>");
    }

    /** Executor ids, each a link to its executor's page; the first 50. */
    static void executorLinks(Html h, List<String> ids, String appId, String attemptId) {
        for (int i = 0; i < ids.size() && i < 50; i++) {
            h.raw(i > 0 ? ", " : "").raw("<a class=\"executor-link\" data-executor=\"").a(ids.get(i))
                    .raw("\" href=\"").a(Links.executor(appId, attemptId, ids.get(i))).raw("\">").t(ids.get(i))
                    .raw("</a>");
        }
        if (ids.size() > 50) {
            h.raw(" … (").t(Fmt.count(ids.size(), "executor")).raw(")");
        }
    }

    static void stageLinks(Html h, List<String> stageKeys, String appId, String attemptId) {
        stageLinks(h, stageKeys, appId, attemptId, null);
    }

    /**
     * Each stage key ("34.0") as a link to the stage, then to its task timeline, and with {@code failedOn} to its
     * failed tasks (on that executor when it names one).
     */
    static void stageLinks(Html h, List<String> stageKeys, String appId, String attemptId, List<String> failedOn) {
        for (int i = 0; i < stageKeys.size() && i < 50; i++) {
            String key = stageKeys.get(i);
            h.raw(i == 0 ? "" : ", ");
            int[] ids = parse(key);
            if (ids == null) {
                h.t(key);
                continue;
            }
            h.raw("<a class=\"stage-link\" data-stage=\"").a(key).raw("\" href=\"")
                    .a(Links.stage(appId, attemptId, ids[0], ids[1])).raw("\">").t(key)
                    .raw("</a> <a class=\"timeline-link muted\" data-stage=\"").a(key).raw("\" href=\"")
                    .a(Urls.stageTimeline(appId, attemptId, ids[0], ids[1])).raw("\">(timeline)</a>");
            if (failedOn != null) {
                String one = failedOn.size() == 1 ? failedOn.get(0) : null;
                h.raw(" <a class=\"failed-tasks-link\" data-stage=\"").a(key).raw("\" href=\"")
                        .a(Links.failedTasks(appId, attemptId, ids[0], ids[1], one)).raw("\">(failed tasks")
                        .t(one == null ? "" : " on " + one).raw(")</a>");
            }
        }
        if (stageKeys.size() > 50) {
            h.raw(" … (").t(Fmt.count(stageKeys.size(), "stage")).raw(")");
        }
    }

    /** Stage-key parsing is not markup: the view's own (the only line changed from the old view). */
    static int[] parse(String stageKey) {
        return FindingsView.parse(stageKey);
    }

    private static void errors(Html h, List<ErrorGroup> groups, String appId, String attemptId) {
        if (groups.isEmpty()) {
            return;
        }
        h.raw("<div class=\"error-groups\">");
        for (ErrorGroup g : groups) {
            h.raw("<div class=\"error-group\" data-kind=\"").a(g.kind().name()).raw("\" data-count=\"").t(g.count())
                    .raw("\"><p class=\"error-head\"><span class=\"error-count\">").t(Fmt.count(g.count()))
                    .raw("×</span> <span class=\"muted\">").t(g.kind().words).raw(":</span> <code class=\"signature\">")
                    .t(g.signature()).raw("</code></p>");
            if (!g.stages().isEmpty() || !g.executors().isEmpty() || !g.jobs().isEmpty()) {
                h.raw("<p class=\"error-where muted\">");
                boolean first = true;
                if (!g.stages().isEmpty()) {
                    h.t(g.stages().size() == 1 ? "stage " : "stages ");
                    stageLinks(h, g.stages(), appId, attemptId, g.kind() == ErrorGroup.Kind.TASK ? g.executors() : null);
                    first = false;
                }
                if (!g.executors().isEmpty()) {
                    h.t(first ? "" : " · ").t(g.executors().size() == 1 ? "executor " : "executors ");
                    executorLinks(h, g.executors(), appId, attemptId);
                    first = false;
                }
                if (!g.jobs().isEmpty()) {
                    h.t(first ? "" : " · ").t(g.jobs().size() == 1 ? "job " : "jobs ");
                    for (int k = 0; k < g.jobs().size(); k++) {
                        String job = g.jobs().get(k);
                        h.t(k > 0 ? ", " : "");
                        if (job.matches("\\d{1,9}")) {
                            h.raw("<a class=\"job-link\" data-job=\"").a(job).raw("\" href=\"")
                                    .a(Links.job(appId, attemptId, Integer.parseInt(job))).raw("\">").t(job).raw("</a>");
                        } else {
                            h.t(job);
                        }
                    }
                }
                h.raw("</p>");
            }
            h.raw("<p class=\"muted first-label\">First occurrence:</p><pre class=\"first\">").t(g.first())
                    .raw("</pre></div>");
        }
        h.raw("</div>");
    }

    private static void details(Html h, FindingDetails d, String appId, String attemptId) {
        if (d.isEmpty()) {
            return;
        }
        h.raw("<details class=\"numbers\"><summary>Numbers</summary>");
        if (!d.rows().isEmpty()) {
            h.raw("<table class=\"kv details\"><tbody>");
            for (FindingDetails.Row r : d.rows()) {
                h.raw("<tr data-key=\"").a(r.key()).raw("\"><th>").t(r.label()).raw("</th><td>");
                if (r.kind() == FindingDetails.Kind.APP) {
                    for (int i = 0; i < r.refs().size(); i++) {
                        h.raw(i == 0 ? "" : ", ").link(Urls.app(r.refs().get(i), null), r.refs().get(i));
                    }
                } else {
                    h.t(r.text());
                }
                h.raw("</td></tr>");
            }
            h.raw("</tbody></table>");
        }
        for (FindingDetails.Table t : d.tables()) {
            h.raw("<table class=\"grid small details-table\" data-key=\"").a(t.key()).raw("\"><caption>").t(t.label())
                    .raw("</caption><thead><tr>");
            for (String c : t.columns()) {
                h.raw("<th>").t(c).raw("</th>");
            }
            h.raw("</tr></thead><tbody>");
            for (List<String> row : t.rows()) {
                h.raw("<tr>");
                for (String c : row) {
                    h.raw("<td>").t(c).raw("</td>");
                }
                h.raw("</tr>");
            }
            h.raw("</tbody></table>");
        }
        h.raw("</details>");
    }
}
