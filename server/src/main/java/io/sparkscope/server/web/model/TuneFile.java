package io.sparkscope.server.web.model;

import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.core.analysis.efficiency.TunedWhatIf;
import io.sparkscope.core.analysis.whatif.WhatIfCaveat;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.RecommendedSettings;
import io.sparkscope.core.report.EfficiencyText;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A job's recommended settings as text a user submits with: a Spark properties file ({@code spark-submit
 * --properties-file}, read by {@link java.util.Properties#load(java.io.Reader)}), whose comments say for each
 * setting the value in force, why and the saving expected, and the predicted time and cost; and the same settings
 * as {@code --conf} options. What {@code sparkscope tune} prints and {@code /tune} serves.
 */
public final class TuneFile {
    /** Characters a shell takes literally: a value made only of them needs no quotes. */
    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9._:/=,+@%-]+");

    private TuneFile() {
    }

    /** The properties file. */
    public static String properties(JobTuning t) {
        List<String> out = new ArrayList<>();
        RecommendedSettings s = t.settings();
        out.add("# Spark settings Sparkscope recommends for job '" + t.jobKey() + "'");
        out.add("# from its latest stored run " + t.run().pathKey() + " (started " + Fmt.time(t.run().startTime())
                + ", took " + Fmt.duration(t.run().durationMs()) + ") on " + s.platform().describe() + ".");
        out.add("# Use: spark-submit --properties-file <this file> ... (or the --conf options at the end).");
        out.add("#");
        for (String line : whatIfLines(t.whatIf())) {
            out.add("# " + line);
        }
        if (s.settings().isEmpty()) {
            out.add("#");
            out.add("# No setting to change: the findings of this run advise none"
                    + (s.left().isEmpty() ? "." : " that can be set here."));
        }
        for (RecommendedSettings.Setting x : s.settings()) {
            out.add("");
            out.add("# " + x.key() + ": now " + x.currentText() + "; use " + x.value());
            for (RecommendedSettings.Because b : x.because()) {
                out.add("#   why: " + b.heuristic() + (b.title().isBlank() ? "" : " (" + b.title() + ")")
                        + (b.askedFor().equals(x.value()) ? "" : ", which asked for " + b.askedFor())
                        + (b.reason().isBlank() ? "" : ": " + b.reason()));
            }
            out.add("#   expected saving: " + saving(x.saving()));
            if (!x.resolution().isEmpty()) {
                out.add("#   resolved: " + x.resolution());
            }
            out.add(escape(x.key(), true) + "=" + escape(x.value(), false));
        }
        if (!s.left().isEmpty()) {
            out.add("");
            out.add("# Advised but not written:");
            for (RecommendedSettings.Left l : s.left()) {
                out.add("#   " + l.key() + "=" + l.value() + ": " + l.why());
            }
        }
        if (!s.settings().isEmpty()) {
            out.add("");
            out.add("# The same as spark-submit options:");
            for (String c : confLines(t)) {
                out.add("#   " + c);
            }
        }
        StringBuilder b = new StringBuilder();
        for (String line : out) {
            b.append(line.startsWith("#") ? oneLine(line) : line).append('\n');
        }
        return b.toString();
    }

    /** {@code --conf key=value}, one per setting, quoted for a POSIX shell where needed. */
    public static List<String> confLines(JobTuning t) {
        List<String> out = new ArrayList<>();
        for (RecommendedSettings.Setting x : t.settings().settings()) {
            String kv = x.key() + "=" + x.value();
            out.add("--conf " + (SHELL_SAFE.matcher(kv).matches() ? kv : "'" + kv.replace("'", "'\\''") + "'"));
        }
        return out;
    }

    /** Today's time and cost next to the predicted ones, and which settings the model cannot predict. */
    public static List<String> whatIfLines(TunedWhatIf w) {
        List<String> out = new ArrayList<>();
        out.add("Predicted with the executor what-if (the run's tasks replayed on executors x cores slots; today's"
                + " run simulated the same way):");
        TunedWhatIf.Estimate today = w.today();
        if (w.tuned() == null) {
            out.add("  today: " + Fmt.duration(today.wallMs()) + " (measured " + Fmt.duration(w.measuredMs())
                    + "), " + cost(w, today.cost()));
            out.add("  with these settings: not modelled");
        } else {
            TunedWhatIf.Estimate tuned = w.tuned();
            out.add("  today:               " + shape(today) + ": " + Fmt.duration(today.wallMs()) + " (measured "
                    + Fmt.duration(w.measuredMs()) + "), " + cost(w, today.cost()));
            out.add("  with these settings: " + shape(tuned) + ": " + Fmt.duration(tuned.wallMs()) + " ("
                    + change(w.timeChange()) + "), " + cost(w, tuned.cost()) + " (" + change(w.costChange()) + ")");
        }
        if (!w.modelled().isEmpty()) {
            out.add("  modelled: " + String.join(", ", w.modelled()));
        }
        if (w.tuned() != null && !w.modelled().contains("spark.executor.instances")) {
            out.add("  executors kept as run (" + w.today().executors() + "): no finding advises"
                    + " spark.executor.instances");
        }
        if (!w.costOnly().isEmpty()) {
            out.add("  priced, but their effect on time (GC, spill) is not modelled: " + String.join(", ", w.costOnly()));
        }
        if (!w.notModelled().isEmpty()) {
            out.add("  not modelled: " + String.join(", ", w.notModelled()));
        }
        for (WhatIfCaveat c : w.simulated().caveats()) {
            out.add("  caveat: " + AppWhatIf.describe(c, w.simulated()));
        }
        return out;
    }

    /** A file name for the job's properties: its key with anything but letters, digits, dot, dash made a dash. */
    public static String fileName(String jobKey) {
        String safe = jobKey.replaceAll("[^A-Za-z0-9.-]+", "-").replaceAll("^[.-]+|-+$", "");
        return (safe.isEmpty() ? "job" : safe.length() > 80 ? safe.substring(0, 80) : safe) + ".properties";
    }

    static String saving(Impact i) {
        if (i.freesCoresOnly()) {
            return "about " + Units.coreHours(i.coreMs()) + " of idle executor core time freed, wall time unchanged"
                    + (i.basis().isBlank() ? "" : " (" + i.basis() + ")");
        }
        if (!i.saves()) {
            return "not estimated";
        }
        String s = i.wallMs() > 0 ? "about " + Fmt.duration(i.wallMs()) + " of wall time" : "";
        if (i.taskMs() > 0) {
            s += (s.isEmpty() ? "about " : ", ") + Units.coreHours(i.taskMs()) + " of task time";
        }
        return s + (i.basis().isBlank() ? "" : " (" + i.basis() + ")");
    }

    private static String shape(TunedWhatIf.Estimate e) {
        return e.executors() + " executor(s) x " + e.coresPerExecutor() + " core(s), "
                + Fmt.bytes(e.containerBytes()) + " container each";
    }

    private static String cost(TunedWhatIf w, double amount) {
        return w.priced() ? "cost " + EfficiencyText.money(amount, w.prices().currency())
                : Units.hours(amount) + " core-hours";
    }

    private static String change(double c) {
        return String.format(Locale.ROOT, "%+.0f %%", c * 100);
    }

    /** A comment stays one line: whatever text it quotes. */
    private static String oneLine(String s) {
        return s.replace('\r', ' ').replace('\n', ' ');
    }

    /**
     * A key or value as {@link java.util.Properties#load(java.io.Reader)} reads it back: backslashes and line breaks
     * escaped, a leading space kept, and in a key the characters that would end it.
     */
    static String escape(String s, boolean key) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\f' -> b.append("\\f");
                case ' ' -> b.append(key || i == 0 ? "\\ " : " ");
                case '=', ':', '#', '!' -> b.append(key ? "\\" + c : String.valueOf(c));
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
