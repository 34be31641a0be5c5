package io.sparkscope.core.heuristics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes one application's setting advice agree: no finding recommends the value already in force, and when several
 * findings touch one key they end with one value and all the reasons. The value of the finding that ranks first (the
 * largest estimated saving, then HIGH over LOW) wins; a finding that wanted the same direction (both larger, or both
 * smaller) takes the winning value, and one that wanted the opposite gives up its advice for that key and says which
 * finding sets it. The recommendation texts are rewritten where they name the advice ({@link SettingAdvice#phrase()}).
 */
public final class AdviceReconciler {
    private AdviceReconciler() {
    }

    /** @param ranked findings in the order they are shown (the first wins a conflict) */
    public static List<Finding> reconcile(List<Finding> ranked) {
        List<Finding> out = new ArrayList<>(ranked.size());
        for (Finding f : ranked) {
            out.add(dropCurrentValues(f));
        }
        Map<String, List<int[]>> byKey = new LinkedHashMap<>(); // key -> (finding index, advice index)
        for (int i = 0; i < out.size(); i++) {
            List<SettingAdvice> advice = out.get(i).advice();
            for (int j = 0; j < advice.size(); j++) {
                byKey.computeIfAbsent(advice.get(j).key(), k -> new ArrayList<>()).add(new int[]{i, j});
            }
        }
        for (Map.Entry<String, List<int[]>> e : byKey.entrySet()) {
            if (e.getValue().size() > 1) {
                reconcileKey(e.getKey(), e.getValue(), out);
            }
        }
        return out;
    }

    private static void reconcileKey(String key, List<int[]> entries, List<Finding> out) {
        // The finding with the largest saving wins; on a tie, the one shown first.
        entries.sort((x, y) -> Ranking.BY_IMPACT.compare(out.get(x[0]), out.get(y[0])));
        Finding winner = out.get(entries.get(0)[0]);
        SettingAdvice win = winner.adviceFor(key);
        List<String> labelled = new ArrayList<>();
        for (int[] at : entries) {
            Finding f = out.get(at[0]);
            SettingAdvice a = f.adviceFor(key);
            boolean same = SettingAdvice.sameValue(key, a.recommendedValue(), win.recommendedValue());
            labelled.add(label(f.heuristic(), same ? null : a.recommendedValue(), a.reason()));
        }
        for (int n = 0; n < entries.size(); n++) {
            int i = entries.get(n)[0];
            Finding f = out.get(i);
            SettingAdvice a = f.adviceFor(key);
            List<String> others = new ArrayList<>(labelled);
            others.remove(n);
            if (SettingAdvice.sameValue(key, a.recommendedValue(), win.recommendedValue())
                    || sameDirection(key, a, win)) {
                out.set(i, replace(f, a, a.withRecommended(win.recommendedValue()).withReasons(others), null));
            } else {
                String note = key + " (not changed for this: " + winner.heuristic() + " sets it to "
                        + win.recommendedValue() + ", now " + win.currentText() + ")";
                out.set(i, replace(f, a, null, note));
            }
        }
    }

    /**
     * Another finding's reason as the reconciled advice carries it: "ExecutorGc: GC takes 30 %", or with the value it
     * wanted when that was not the one used: "DiskSpill (asked for 10g): tasks spill".
     */
    static String label(String heuristic, String askedFor, String reason) {
        return heuristic + (askedFor == null ? "" : " (asked for " + askedFor + ")") + ": " + reason;
    }

    /** A reason {@link #label} wrote, read back: who asked, for what value (null: the one used), and why. */
    record Label(String heuristic, String askedFor, String reason) {
        private static final Pattern FORM = Pattern.compile("([A-Za-z0-9_.$-]+)(?: \\(asked for (.*?)\\))?: (.*)",
                Pattern.DOTALL);

        /** The label, or null when {@code text} is a finding's own reason and not one. */
        static Label parse(String text) {
            Matcher m = FORM.matcher(text);
            return m.matches() ? new Label(m.group(1), m.group(2), m.group(3)) : null;
        }
    }

    private static boolean sameDirection(String key, SettingAdvice a, SettingAdvice b) {
        OptionalDouble cur = SettingAdvice.numeric(key, a.currentValue());
        OptionalDouble x = SettingAdvice.numeric(key, a.recommendedValue());
        OptionalDouble y = SettingAdvice.numeric(key, b.recommendedValue());
        if (cur.isEmpty() || x.isEmpty() || y.isEmpty()) {
            return false;
        }
        return Math.signum(x.getAsDouble() - cur.getAsDouble()) == Math.signum(y.getAsDouble() - cur.getAsDouble());
    }

    // Advice for the value in force is no advice: drop it, and say in the text that the value is already that.
    static Finding dropCurrentValues(Finding f) {
        Finding g = f;
        for (SettingAdvice a : f.advice()) {
            if (a.recommendsCurrent()) {
                g = replace(g, a, null, a.key() + " (already " + a.currentText() + ")");
            }
        }
        return g;
    }

    /** Replaces (or, with {@code by} null, removes) one advice and rewrites the text where it names it. */
    private static Finding replace(Finding f, SettingAdvice old, SettingAdvice by, String removedText) {
        List<SettingAdvice> advice = new ArrayList<>();
        for (SettingAdvice a : f.advice()) {
            if (a.key().equals(old.key())) {
                if (by != null) {
                    advice.add(by);
                }
            } else {
                advice.add(a);
            }
        }
        String text = f.recommendation();
        String oldPhrase = old.phrase();
        if (by != null) {
            String newPhrase = by.phrase();
            if (!newPhrase.equals(oldPhrase)) {
                text = text.contains(oldPhrase) ? text.replace(oldPhrase, newPhrase)
                        : text + " Use " + newPhrase + ", agreed with the other findings.";
            }
        } else if (text.contains(oldPhrase)) {
            text = text.replace(oldPhrase, removedText);
        } else {
            text = text + " Leave " + removedText + ".";
        }
        return f.withAdvice(advice, text);
    }
}
