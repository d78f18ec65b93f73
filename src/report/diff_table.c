/* clmem diff's table, for people (diff_internal.h): the runs paired, a
 * row a result with its verdict and both runs' spread, then the counts
 * and the outcome. */
#include "report/diff_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    COL_PAIR,
    COL_WORKLOAD,
    COL_VARIANT,
    COL_SIZE,
    COL_BASE,
    COL_NEW,
    COL_RATIO,
    COL_VERDICT,
    COL_SPREAD,
    N_COLUMNS
};
static const struct {
    const char *title;
    int right; /* numbers align right */
} columns[N_COLUMNS] = {
    [COL_PAIR] = {"run", 0},
    [COL_WORKLOAD] = {"workload", 0},
    [COL_VARIANT] = {"variant", 0},
    [COL_SIZE] = {"size", 0},
    [COL_BASE] = {"base", 1},
    [COL_NEW] = {"new", 1},
    [COL_RATIO] = {"ratio", 1},
    [COL_VERDICT] = {"verdict", 0},
    [COL_SPREAD] = {"spread base / new", 0},
};

struct table_row {
    char cell[N_COLUMNS][112];
};

/* A run's samples, fastest and slowest, as percentages off its median:
 * "-0.4..+1.2%"; "-" when it has none. */
static void spread_text(const struct clmem_result *r, char *out, size_t size)
{
    if (!r || r->skipped || !(r->median_ms > 0) || isnan(r->min_ms) || isnan(r->max_ms))
        snprintf(out, size, "-");
    else
        /* min <= median <= max: the signs are known, and fabs keeps a
         * rounded -0.0 from reading "+-0.0". */
        snprintf(out, size, "-%.1f..+%.1f%%", fabs(r->min_ms / r->median_ms - 1) * 100,
                 fabs(r->max_ms / r->median_ms - 1) * 100);
}

static void fill_row(const struct clmem_diff_row *row, struct table_row *t)
{
    const struct clmem_result *r = diff_row_result(row);
    char base_spread[48], new_spread[48];
    snprintf(t->cell[COL_PAIR], sizeof t->cell[COL_PAIR], "#%zu", row->pair + 1);
    clmem_text_format(t->cell[COL_WORKLOAD], sizeof t->cell[COL_WORKLOAD], "%s", r->workload);
    clmem_text_format(t->cell[COL_VARIANT], sizeof t->cell[COL_VARIANT], "%s", r->variant);
    if (r->sweep[0])
        clmem_text_format(t->cell[COL_SIZE], sizeof t->cell[COL_SIZE], "%s %s=%u", r->size,
                          r->sweep, r->sweep_value);
    else
        clmem_text_format(t->cell[COL_SIZE], sizeof t->cell[COL_SIZE], "%s", r->size);
    clmem_format_metric(diff_side_metric(row->base), diff_row_unit(row), t->cell[COL_BASE],
                        sizeof t->cell[COL_BASE]);
    clmem_format_metric(diff_side_metric(row->newer), diff_row_unit(row), t->cell[COL_NEW],
                        sizeof t->cell[COL_NEW]);
    if (isnan(row->ratio))
        snprintf(t->cell[COL_RATIO], sizeof t->cell[COL_RATIO], "-");
    else
        snprintf(t->cell[COL_RATIO], sizeof t->cell[COL_RATIO], "%.2fx", row->ratio);
    snprintf(t->cell[COL_VERDICT], sizeof t->cell[COL_VERDICT], "%s",
             clmem_verdict_name(row->verdict));
    spread_text(row->base, base_spread, sizeof base_spread);
    spread_text(row->newer, new_spread, sizeof new_spread);
    snprintf(t->cell[COL_SPREAD], sizeof t->cell[COL_SPREAD], "%s / %s", base_spread, new_spread);
    /* Names from the files, shown as text: no control character reaches
     * the terminal. */
    for (size_t c = 0; c < N_COLUMNS; c++) {
        char raw[sizeof t->cell[c]];
        memcpy(raw, t->cell[c], sizeof raw);
        clmem_text_escape(raw, t->cell[c], sizeof t->cell[c]);
    }
}

/* "base bench/h100.json: NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver
 * 580.159.04, clmem 0.1.0, host not recorded)". */
static void describe_run(FILE *out, const char *side, const struct clmem_compare_device *run)
{
    char label[512];
    if (!run) {
        fprintf(out, "  %s none (no run of this file pairs with it)\n", side);
        return;
    }
    /* Every name from the file escaped: no control character reaches the
     * terminal. */
    diff_run_label(run, label, sizeof label);
    fprintf(out, "  %s ", side);
    clmem_fputs_escaped(run->origin[0] ? run->origin : "-", out);
    fputs(": ", out);
    clmem_fputs_escaped(label, out);
    fputs(" (", out);
    if (run->device.platform_name[0]) {
        clmem_fputs_escaped(run->device.platform_name, out);
        fputs(", ", out);
    }
    fputs("driver ", out);
    clmem_fputs_escaped(run->device.driver[0] ? run->device.driver : "?", out);
    if (run->clmem_version[0]) {
        fputs(", clmem ", out);
        clmem_fputs_escaped(run->clmem_version, out);
        fputs(" ", out);
        clmem_fputs_escaped(run->clmem_git[0] ? run->clmem_git : "(build not recorded)", out);
    }
    /* A single-device file with no host name (bench/'s from clmem 0.1.0). */
    if (!run->host[0] && run->rank < 0)
        fprintf(out, ", host not recorded");
    fprintf(out, ")\n");
}

/* One line of the table from `first` on; the last column is not padded,
 * so no line ends in blanks. */
static void print_cells(FILE *out, size_t first, const size_t width[N_COLUMNS],
                        const char *const cell[N_COLUMNS])
{
    for (size_t c = first; c < N_COLUMNS; c++) {
        if (c + 1 == N_COLUMNS)
            fprintf(out, "%s\n", cell[c]);
        else if (columns[c].right)
            fprintf(out, "%*s  ", (int)width[c], cell[c]);
        else
            fprintf(out, "%-*s  ", (int)width[c], cell[c]);
    }
}

int clmem_diff_table(FILE *out, const struct clmem_diff *diff)
{
    struct table_row *rows = calloc(diff->n_rows ? diff->n_rows : 1, sizeof *rows);
    if (!rows)
        return CLMEM_ERR_CL;
    /* The run column only says something when there are several pairs. */
    size_t first = diff->n_pairs > 1 ? COL_PAIR : COL_WORKLOAD;
    size_t width[N_COLUMNS];
    const char *cell[N_COLUMNS];
    for (size_t c = 0; c < N_COLUMNS; c++) {
        width[c] = strlen(columns[c].title);
        cell[c] = columns[c].title;
    }
    for (size_t i = 0; i < diff->n_rows; i++) {
        fill_row(&diff->rows[i], &rows[i]);
        if (!diff_shown(diff, &diff->rows[i]))
            continue;
        for (size_t c = 0; c < N_COLUMNS; c++)
            if (strlen(rows[i].cell[c]) > width[c])
                width[c] = strlen(rows[i].cell[c]);
    }
    char summary[256];
    clmem_diff_summary(diff, summary, sizeof summary);
    const char *verdict = clmem_diff_outcome(diff);
    /* The outcome first, where a glance lands, and again under the table. */
    fprintf(out, "%s: %s\n", summary, verdict);
    for (size_t p = 0; p < diff->n_pairs; p++) {
        if (diff->pairs[p].base && diff->pairs[p].newer)
            fprintf(out, "run #%zu, paired by %s:\n", p + 1, diff->pairs[p].paired_by);
        else
            fprintf(out, "run #%zu, unpaired: only in the %s file\n", p + 1,
                    diff->pairs[p].base ? "base" : "new");
        const struct clmem_compare_device *b = diff->pairs[p].base, *n = diff->pairs[p].newer;
        describe_run(out, "base", b);
        describe_run(out, "new ", n);
        /* Another build or driver is a cause beside the change itself. */
        if (b && n && strcmp(b->clmem_git, n->clmem_git) != 0)
            fprintf(out, "  the builds differ: a change may be clmem's own as well as the "
                         "device's\n");
        if (b && n && strcmp(b->device.driver, n->device.driver) != 0)
            fprintf(out, "  the drivers differ: a change may be the driver's\n");
        for (int side = 0; side < 2; side++) {
            const struct clmem_compare_device *run =
                side ? diff->pairs[p].newer : diff->pairs[p].base;
            if (run && run->interrupted)
                fprintf(out,
                        "  the %s run was interrupted (\"interrupted\": true): it holds only "
                        "the results that finished\n",
                        side ? "new" : "base");
        }
    }
    fprintf(out,
            "a change counts beyond %g%% and outside both runs' sample ranges; "
            "spread: fastest..slowest sample off the median\n",
            diff->threshold);
    if (diff->changes_only) {
        size_t hidden = 0;
        for (size_t i = 0; i < diff->n_rows; i++)
            hidden += !diff_shown(diff, &diff->rows[i]);
        fprintf(out, "only the rows that changed: %zu unchanged not shown\n", hidden);
    }
    print_cells(out, first, width, cell);
    for (size_t i = 0; i < diff->n_rows; i++) {
        if (!diff_shown(diff, &diff->rows[i]))
            continue;
        for (size_t c = 0; c < N_COLUMNS; c++)
            cell[c] = rows[i].cell[c];
        print_cells(out, first, width, cell);
    }
    fprintf(out, "%s: %s\n", summary, verdict);
    free(rows);
    return CLMEM_OK;
}
