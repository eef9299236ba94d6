/*
 * table.c -- the output primitives (table.h) that the report, the
 * ratings and the tuning print through: aligned text, CSV and Markdown
 * tables, section titles, and JSON strings, numbers and intervals that are
 * valid JSON whatever bytes or values they are given.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/* One Markdown table cell holding text: a '|' escaped, a line end (which
 * would end the row) written as a space, so a hand-edited name cannot
 * break the table. */
static void markdown_cell(FILE *out, const char *text)
{
    fputs("| ", out);
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            fputs("\\|", out);
        else if (*p == '\n' || *p == '\r')
            fputc(' ', out);
        else
            fputc(*p, out);
    }
    fputc(' ', out);
}

void table_print(const struct table *t, enum report_format f,
                 FILE *out)
{
    int width[TABLE_MAX_COLUMNS];
    for (int c = 0; c < t->n_columns; c++) {
        width[c] = (int)strlen(t->header[c]);
        for (int i = 0; i < t->n_rows; i++) {
            int w = (int)strlen(t->cells[i][c]);
            width[c] = w > width[c] ? w : width[c];
        }
    }
    for (int i = -1; i < t->n_rows; i++) {
        for (int c = 0; c < t->n_columns; c++) {
            const char *text = i < 0 ? t->header[c] : t->cells[i][c];
            if (f == REPORT_CSV) {
                fputs(c ? "," : "", out);
                if (strpbrk(text, ",\"\r\n")) {
                    fputc('"', out);
                    for (const char *p = text; *p; p++)
                        fputs(*p == '"' ? "\"\"" : (char[2]){*p, 0}, out);
                    fputc('"', out);
                } else {
                    fputs(text, out);
                }
            } else if (f == REPORT_MARKDOWN) {
                markdown_cell(out, text);
            } else {
                fprintf(out, "%s%-*s", c ? "  " : "", width[c], text);
            }
        }
        fputs(f == REPORT_MARKDOWN ? "|\n" : "\n", out);
        if (i < 0 && f == REPORT_MARKDOWN) {
            for (int c = 0; c < t->n_columns; c++)
                fputs("|---", out);
            fputs("|\n", out);
        }
    }
}

/* How many bytes of s to take as one character: the length of the
 * well-formed UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), with *bad = 0; or, if s does not
 * start one, the length of the longest start of a well-formed sequence
 * there (at least 1), with *bad = 1 -- the "maximal subpart" that Unicode
 * (chapter 3, U+FFFD substitution) and Python's "replace" turn into one
 * U+FFFD. */
static int utf8_length(const unsigned char *s, int *bad)
{
    *bad = 0;
    if (s[0] < 0x80)
        return 1;
    int len;
    unsigned lo = 0x80, hi = 0xbf; /* the allowed range of the second byte */
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        len = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        lo = s[0] == 0xe0 ? 0xa0 : 0x80;
        hi = s[0] == 0xed ? 0x9f : 0xbf;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        lo = s[0] == 0xf0 ? 0x90 : 0x80;
        hi = s[0] == 0xf4 ? 0x8f : 0xbf;
    } else {
        *bad = 1;
        return 1;
    }
    for (int i = 1; i < len; i++) {
        unsigned first = i == 1 ? lo : 0x80, last = i == 1 ? hi : 0xbf;
        if (s[i] < first || s[i] > last) { /* a NUL ends it here too */
            *bad = 1;
            return i;
        }
    }
    return len;
}

/* A JSON string (RFC 8259) holding text: quotes, backslashes and control
 * characters escaped, well-formed UTF-8 copied, and each ill-formed
 * subsequence (agent names and sweep texts are whatever bytes the sweep
 * file held) written as U+FFFD, so the output is always valid JSON in
 * UTF-8. */
void json_string(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    fputc('"', out);
    while (*s) {
        int bad, len = utf8_length(s, &bad);
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if (*s < 0x20 || *s == 0x7f)
            fprintf(out, "\\u%04x", *s);
        else if (bad)
            fputs("\\ufffd", out);
        else
            fwrite(s, 1, (size_t)len, out);
        s += len;
    }
    fputc('"', out);
}

void json_key_string(FILE *out, const char *key, const char *text)
{
    fprintf(out, ", \"%s\": ", key);
    json_string(out, text);
}

void table_section_title(const char *title, const char *csv_name,
                         enum report_format f, FILE *out)
{
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\n### %s\n\n", title);
    else if (f == REPORT_TABLE)
        fprintf(out, "\n%s\n", title);
    else
        fprintf(out, "\n# %s\n", csv_name);
}

void table_print_section(struct table *t, const char *title,
                         const char *csv_name, enum report_format f,
                         FILE *out)
{
    table_section_title(title, csv_name, f, out);
    table_print(t, f, out);
    free(t->cells);
    t->cells = NULL;
}

/* A table of n_rows rows under headers (n_columns of them), its cells
 * zeroed. Returns 0, or -1 if memory could not be had. */
int table_new(struct table *t, const char *const *headers,
              int n_columns, int n_rows)
{
    memset(t, 0, sizeof *t);
    t->n_columns = n_columns;
    t->n_rows = n_rows;
    memcpy(t->header, headers, sizeof *headers * (size_t)n_columns);
    t->cells = calloc((size_t)(n_rows ? n_rows : 1), sizeof *t->cells);
    return t->cells ? 0 : -1;
}

void table_number_text(char *out, const char *format, double x)
{
    if (isfinite(x))
        snprintf(out, VARIANT_TEXT_MAX, format, x);
    else
        snprintf(out, VARIANT_TEXT_MAX, "n/a");
}

void json_number(FILE *out, const char *format, double x)
{
    if (isfinite(x))
        fprintf(out, format, x);
    else
        fputs("null", out);
}

void json_interval(FILE *out, const char *format, int valid,
                   double lo, double hi)
{
    if (!valid) {
        fputs("null", out);
        return;
    }
    fputc('[', out);
    json_number(out, format, lo);
    fputs(", ", out);
    json_number(out, format, hi);
    fputc(']', out);
}
