package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.redact.Redactor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * All the settings one run's findings advise, merged into one list a user can submit the next run with: one value per
 * key (agreed by {@link AdviceReconciler}), why (every finding that asked for it, with its own reason and saving), and
 * only keys the user can set on the run's platform. What the command line, the API and the history page write.
 *
 * @param platform where the run ran, which decides what can be set
 * @param settings the settings to use, the one with the largest saving first
 * @param left     advice that is not written, each with the reason (not settable on this platform, or a secret)
 */
public record RecommendedSettings(Platform platform, List<Setting> settings, List<Left> left) {

    public RecommendedSettings {
        Objects.requireNonNull(platform, "platform");
        settings = List.copyOf(settings);
        left = List.copyOf(left);
    }

    /**
     * One setting to use.
     *
     * @param key           the Spark configuration key
     * @param currentValue  the value in force in the run (as set, or Spark's default); empty when unknown
     * @param currentSource whether the run set it, ran on the default, or it is unknown
     * @param value         the value to use
     * @param because       every finding that asked to change it, the one with the largest saving first
     * @param saving        the largest saving of the findings the value serves (their savings overlap, so they are
     *                      not added up); {@link Impact#NONE} when none was estimated
     * @param resolution    when findings asked for different values: which one is used and why; else empty
     */
    public record Setting(String key, String currentValue, SettingAdvice.ValueSource currentSource, String value,
                          List<Because> because, Impact saving, String resolution) {
        public Setting {
            because = List.copyOf(because);
        }

        /** The value in force as a person reads it: "8", "200, the default", "unknown". */
        public String currentText() {
            return new SettingAdvice(key, currentValue, currentSource, value, List.of()).currentText();
        }
    }

    /**
     * A finding that asked to change a setting.
     *
     * @param askedFor the value this finding asked for (another than the one used when they disagreed)
     * @param reason   the finding's own reason for it
     */
    public record Because(String findingId, String heuristic, String title, Severity severity, String askedFor,
                          String reason, Impact impact) {
    }

    /** Advice left out of the settings: the key, the value asked for and why it is not written. */
    public record Left(String key, String value, String why) {
    }

    /**
     * Merges the advice of one run's findings.
     *
     * @param findings the run's findings as stored (any order: they are ranked here)
     * @param app      the run as stored (its configuration already redacted), for its platform and redaction rules
     */
    public static RecommendedSettings of(List<Finding> findings, AppSnapshot app) {
        return of(findings, Platform.of(app), Redactor.forSparkProperties(app.config().sparkProperties()));
    }

    public static RecommendedSettings of(List<Finding> findings, Platform platform, Redactor redactor) {
        List<Finding> ranked = new ArrayList<>(findings);
        ranked.sort(Ranking.BY_IMPACT);
        // Stored findings were reconciled when analysed; doing it again here keeps this right for findings of older
        // versions or merged from elsewhere, and changes nothing for those that already agree.
        List<Finding> agreed = AdviceReconciler.reconcile(ranked);

        Map<String, List<Because>> asked = new LinkedHashMap<>();
        for (Finding f : ranked) {
            for (SettingAdvice a : f.advice()) {
                asked.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(new Because(f.id(), f.heuristic(),
                        f.title(), f.severity(), a.recommendedValue(), a.reason(), f.impact()));
            }
        }
        List<Setting> settings = new ArrayList<>();
        List<Left> left = new ArrayList<>();
        for (Map.Entry<String, List<Because>> e : asked.entrySet()) {
            String key = e.getKey();
            SettingAdvice used = null;
            Impact saving = Impact.NONE;
            for (Finding f : agreed) {
                SettingAdvice a = f.adviceFor(key);
                if (a != null) {
                    used = used == null ? a : used;
                    saving = saving.max(f.impact());
                }
            }
            if (used == null) {
                continue; // every finding asked for the value already in force
            }
            String why = notSettable(key, platform);
            if (why == null && redactor.isSecret(key, used.recommendedValue())) {
                why = "its value looks like a secret, which is never written";
            }
            if (why != null) {
                left.add(new Left(key, used.recommendedValue(), why));
                continue;
            }
            List<Because> because = withReconciled(key, e.getValue(), agreed, ranked);
            settings.add(new Setting(key, used.currentValue(), used.currentSource(), used.recommendedValue(),
                    because, saving, resolution(key, used.recommendedValue(), because)));
        }
        settings.sort((x, y) -> y.saving().compareTo(x.saving()));
        return new RecommendedSettings(platform, settings, left);
    }

    /**
     * The findings that asked for {@code key}, completed from what an earlier reconciliation (when the run was
     * analysed) wrote into the advice's reasons: a finding that gave the key up no longer carries advice for it, and
     * one that took the winning value no longer says what it asked for; both are named in the reasons.
     */
    private static List<Because> withReconciled(String key, List<Because> asked, List<Finding> agreed,
                                                List<Finding> ranked) {
        Map<String, AdviceReconciler.Label> labels = new LinkedHashMap<>();
        for (Finding f : agreed) {
            SettingAdvice a = f.adviceFor(key);
            if (a == null) {
                continue;
            }
            // the first reason is the finding's own; the others are labels of the other findings
            for (String r : a.reasons().subList(Math.min(1, a.reasons().size()), a.reasons().size())) {
                AdviceReconciler.Label l = AdviceReconciler.Label.parse(r);
                if (l != null && (l.askedFor() != null || !labels.containsKey(l.heuristic()))) {
                    labels.put(l.heuristic(), l);
                }
            }
        }
        List<Because> out = new ArrayList<>();
        Set<String> named = new LinkedHashSet<>();
        for (Because b : asked) {
            AdviceReconciler.Label l = labels.get(b.heuristic());
            out.add(l == null || l.askedFor() == null ? b : new Because(b.findingId(), b.heuristic(), b.title(),
                    b.severity(), l.askedFor(), b.reason(), b.impact()));
            named.add(b.heuristic());
        }
        for (AdviceReconciler.Label l : labels.values()) {
            if (named.contains(l.heuristic()) || l.askedFor() == null) {
                continue;
            }
            for (Finding f : ranked) {
                if (f.heuristic().equals(l.heuristic()) && f.adviceFor(key) == null) {
                    out.add(new Because(f.id(), f.heuristic(), f.title(), f.severity(), l.askedFor(), l.reason(),
                            f.impact()));
                    named.add(l.heuristic());
                    break;
                }
            }
        }
        return out;
    }

    /** Says which value was chosen when the findings asked for several; empty when they agreed. */
    private static String resolution(String key, String used, List<Because> because) {
        Set<String> values = new LinkedHashSet<>();
        for (Because b : because) {
            values.add(b.askedFor());
        }
        if (values.size() < 2) {
            return "";
        }
        List<String> asks = new ArrayList<>();
        String winner = null;
        for (Because b : because) {
            asks.add(b.heuristic() + " asked for " + b.askedFor());
            boolean agrees = SettingAdvice.sameValue(key, b.askedFor(), used);
            if (winner == null && agrees) {
                winner = b.heuristic();
            }
        }
        return String.join(", ", asks) + "; " + used + " is used: the finding with the largest estimated saving"
                + (winner == null ? "" : " (" + winner + ")") + " sets it, and findings that wanted the same"
                + " direction take it";
    }

    /**
     * Why a key cannot be set by the user on this platform, or null when it can. Databricks sizes executors from the
     * worker node type; in local mode the driver runs every task, so executor and allocation settings do nothing; a
     * YARN or Kubernetes setting means nothing under another cluster manager.
     */
    static String notSettable(String key, Platform platform) {
        boolean executorShape = key.equals("spark.executor.memory") || key.equals("spark.executor.cores")
                || key.equals("spark.executor.instances") || key.equals("spark.executor.memoryOverhead");
        if (platform.local() && (key.startsWith("spark.executor.") || key.startsWith("spark.dynamicAllocation."))) {
            return "in local mode the driver runs every task: executor settings do nothing";
        }
        if (platform.executorsSizedByNodeType() && executorShape) {
            return platform.service().label + " sizes each executor from the worker node type"
                    + (platform.nodeType() == null ? "" : " (" + platform.nodeType() + ")")
                    + ": choose another node type instead";
        }
        if (key.startsWith("spark.yarn.") && !platform.yarn() && platform.manager() != Platform.Manager.UNKNOWN) {
            return "a YARN setting, and the run used " + platform.manager().label;
        }
        if (key.startsWith("spark.kubernetes.") && !platform.kubernetes()
                && platform.manager() != Platform.Manager.UNKNOWN) {
            return "a Kubernetes setting, and the run used " + platform.manager().label;
        }
        return null;
    }

    /** The settings as key → value, in order. */
    public Map<String, String> values() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Setting s : settings) {
            out.put(s.key(), s.value());
        }
        return out;
    }
}
