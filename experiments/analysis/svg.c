/*
 * svg.c -- the report's figures as inline SVG (svg.h): an interval chart,
 * a bar chart, and the escaping every piece of text goes through.
 */
#include "svg.h"

#include <math.h>

#define CHART_WIDTH 720  /* the whole figure, in SVG units */
#define LABEL_WIDTH 300  /* left of the axis: the row labels */
#define ROW_HEIGHT 22
#define TOP 24            /* above the first row: the axis labels */
#define LABEL_CHARS 44    /* a label longer than this is cut, with "..." */

void html_text(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++)
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*p, out);
        }
}

/* Opens a figure height units tall: the <svg> element, its <title>, and
 * its <desc>, which the caller fills and closes. */
static void svg_open(FILE *out, const char *title, int height)
{
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
            "class=\"chart\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\">\n<title>", CHART_WIDTH, height,
            CHART_WIDTH, height);
    html_text(out, title);
    fputs("</title>\n<desc>", out);
}

/* The x coordinate of value v on an axis from lo to hi. */
static double x_of(double v, double lo, double hi)
{
    double w = CHART_WIDTH - LABEL_WIDTH - 20;
    double f = (v - lo) / (hi - lo);
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return LABEL_WIDTH + f * w;
}

/* A label, cut to LABEL_CHARS bytes (at a character boundary of UTF-8). */
static void short_label(FILE *out, const char *label)
{
    char buf[LABEL_CHARS + 4];
    size_t n = 0;
    while (label[n] && n < LABEL_CHARS)
        n++;
    while (n > 0 && label[n] && ((unsigned char)label[n] & 0xc0) == 0x80)
        n--; /* not in the middle of a character */
    snprintf(buf, sizeof buf, "%.*s%s", (int)n, label, label[n] ? "..." : "");
    html_text(out, buf);
}

void svg_interval_chart(FILE *out, const char *title,
                        const struct svg_interval_row *rows, int n,
                        double axis_min, double axis_max, double reference)
{
    int height = TOP + n * ROW_HEIGHT + 10;
    svg_open(out, title, height);
    for (int i = 0; i < n; i++) {
        html_text(out, rows[i].label);
        fprintf(out, ": %.3f", rows[i].value);
        if (!isnan(rows[i].lo))
            fprintf(out, " (95%% interval %.3f to %.3f)", rows[i].lo,
                    rows[i].hi);
        fputs(i + 1 < n ? "; " : ".", out);
    }
    fputs("</desc>\n", out);
    /* the axis: five ticks along the top, and the reference line */
    for (int t = 0; t <= 4; t++) {
        double v = axis_min + (axis_max - axis_min) * t / 4.0;
        /* two decimals on a score's axis, none on an Elo's */
        fprintf(out, "<text x=\"%.1f\" y=\"14\" text-anchor=\"middle\">"
                "%.*f</text>\n", x_of(v, axis_min, axis_max),
                axis_max - axis_min > 20 ? 0 : 2, v);
    }
    double xr = x_of(reference, axis_min, axis_max);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
            "stroke=\"#777\" stroke-dasharray=\"4 3\"/>\n", xr, TOP - 6, xr,
            height - 4);
    for (int i = 0; i < n; i++) {
        double y = TOP + i * ROW_HEIGHT + ROW_HEIGHT / 2.0;
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                "dominant-baseline=\"middle\">", LABEL_WIDTH - 8, y);
        short_label(out, rows[i].label);
        fputs("</text>\n", out);
        if (!isnan(rows[i].lo))
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                    "y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\"/>\n",
                    x_of(rows[i].lo, axis_min, axis_max), y,
                    x_of(rows[i].hi, axis_min, axis_max), y);
        if (!isnan(rows[i].value))
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
                    "fill=\"#000\"/>\n", x_of(rows[i].value, axis_min,
                                               axis_max), y);
    }
    fputs("</svg>\n", out);
}

void svg_bar_chart(FILE *out, const char *title,
                   const struct svg_bar_row *rows, int n)
{
    int height = TOP + n * ROW_HEIGHT + 10;
    long most = 1;
    for (int i = 0; i < n; i++)
        most = rows[i].count > most ? rows[i].count : most;
    svg_open(out, title, height);
    for (int i = 0; i < n; i++) {
        html_text(out, rows[i].label);
        fprintf(out, ": %ld%s", rows[i].count, i + 1 < n ? "; " : ".");
    }
    fputs("</desc>\n", out);
    for (int i = 0; i < n; i++) {
        double y = TOP + i * ROW_HEIGHT + ROW_HEIGHT / 2.0;
        /* the longest bar leaves room for its count after it */
        double x1 = x_of((double)rows[i].count, 0, (double)most * 1.15);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                "dominant-baseline=\"middle\">", LABEL_WIDTH - 8, y);
        short_label(out, rows[i].label);
        fprintf(out, "</text>\n<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%d\" fill=\"#000\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                "dominant-baseline=\"middle\">%ld</text>\n", LABEL_WIDTH,
                y - ROW_HEIGHT / 2.0 + 4, x1 - LABEL_WIDTH, ROW_HEIGHT - 8,
                x1 + 4, y, rows[i].count);
    }
    fputs("</svg>\n", out);
}
