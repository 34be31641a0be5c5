package io.sparkscope.core.analysis.prediction;

/**
 * An ordinary least-squares line {@code y = intercept + slope·x}.
 *
 * @param r2 coefficient of determination, 1 − SS_res/SS_tot; 1 when every y is equal and the line hits them all
 * @param n  points fitted
 */
public record LinearFit(double intercept, double slope, double r2, int n) {

    public double at(double x) {
        return intercept + slope * x;
    }

    /** Fits {@code y} against {@code x}; all {@code x} equal gives a flat line through the mean with R² 0. */
    public static LinearFit of(double[] x, double[] y) {
        if (x.length != y.length || x.length == 0) {
            throw new IllegalArgumentException("need as many x as y, at least one");
        }
        int n = x.length;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
            syy += (y[i] - my) * (y[i] - my);
        }
        if (sxx == 0) {
            return new LinearFit(my, 0, 0, n);
        }
        double slope = sxy / sxx;
        double intercept = my - slope * mx;
        double ssRes = 0;
        for (int i = 0; i < n; i++) {
            double r = y[i] - (intercept + slope * x[i]);
            ssRes += r * r;
        }
        double r2 = syy == 0 ? 1 : Math.max(0, 1 - ssRes / syy);
        return new LinearFit(intercept, slope, r2, n);
    }
}
