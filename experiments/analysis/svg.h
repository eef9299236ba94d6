/*
 * svg.h -- the report's figures as inline SVG, drawn by our own small
 * module (no library, no script, no font file): an interval chart, a row
 * per item with its value as a dot, its 95% interval as a bar, and a
 * dashed reference line (0.5: a fair game); and a bar chart of counts;
 * their text takes the page's style for `svg.chart text`.
 * Every figure carries a text alternative (<title> and <desc>) with its
 * numbers, and reads in greyscale (black marks on white, the reference in
 * grey and dashed). Text is escaped for HTML and SVG alike (html_text).
 */
#ifndef RULELAB_SVG_H
#define RULELAB_SVG_H

#include <stdio.h>

/* Writes text with &, <, >, " and ' escaped, so it is character data or
 * an attribute value in HTML and SVG, never markup, whatever it holds. */
void html_text(FILE *out, const char *text);

/* One row of an interval chart: a label, the value and its interval
 * (lo and hi NAN when there is none: the dot alone is drawn). */
struct svg_interval_row {
    const char *label;
    double value, lo, hi;
};

/* Draws rows on an axis from axis_min to axis_max (values outside are
 * drawn at its ends) with a dashed line at reference; title names the
 * figure (its <title>), and the <desc> lists every row's label, value and
 * interval. */
void svg_interval_chart(FILE *out, const char *title,
                        const struct svg_interval_row *rows, int n,
                        double axis_min, double axis_max, double reference);

/* One row of a bar chart: a label and a count. */
struct svg_bar_row {
    const char *label;
    long count;
};

/* Draws a bar a row, its length the row's count against the largest, the
 * count written after it; title names the figure, the <desc> lists every
 * row's label and count. */
void svg_bar_chart(FILE *out, const char *title,
                   const struct svg_bar_row *rows, int n);

#endif
