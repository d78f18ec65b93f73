/* Performance portability's pictures (the table is portability.c's):
 * per workload, its variants' application efficiency on each entry, most
 * efficient first, and PP over the first k entries (WORKLOAD-pp.svg). */
#include "compare/plots_pp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- performance portability: cascades ---- */

/* Up to this many variants of a workload in its cascade, those of the
 * highest PP (application); the table holds every one. */
#define CASCADE_LINES 4

static double mean_of(const double *e, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += e[i] > 0 ? e[i] : 0;
    return n ? sum / (double)n : 0;
}

struct ranked_eff {
    double e;
    size_t entry;
};

static int by_efficiency(const void *a, const void *b)
{
    double x = ((const struct ranked_eff *)a)->e, y = ((const struct ranked_eff *)b)->e;
    return x > y ? -1 : x < y;
}

/* WORKLOAD-pp.svg for each workload of `t` of two variants or more run
 * on two entries or more:
 * for each of its variants of the highest PP, its application efficiency
 * on each entry, most efficient first (a point in the entry's colour),
 * and PP over the first k entries (its line, the variant's dashes):
 * where the line falls, the next entry costs portability. */
int plots_cascades(struct plotter *pl, const struct pp_table *t)
{
    int status = CLMEM_OK;
    struct ranked_eff *order = calloc(t->n_devs + 1, sizeof *order);
    size_t *chosen = calloc(t->n + 1, sizeof *chosen);
    double *prefix = calloc(t->n_devs + 1, sizeof *prefix);
    if (!order || !chosen || !prefix) {
        status = clmem_fail(pl->err, CLMEM_ERR_CL, "out of host memory");
        goto done;
    }
    for (size_t w = 0; w < t->n && !status && t->n_devs >= 2; w++) {
        if (t->apps[w].variant)
            continue;
        /* The workload's variants, the highest PP first; among equals
         * (0 where some device did not run them), the highest mean
         * efficiency. */
        size_t n_chosen = 0, n_variants = 0;
        for (size_t k = w + 1; k < t->n && t->apps[k].variant; k++)
            n_variants++;
        for (size_t pick = 0; pick < CASCADE_LINES; pick++) {
            size_t top = 0;
            for (size_t k = w + 1; k < t->n && t->apps[k].variant; k++) {
                int taken = 0;
                for (size_t c = 0; c < n_chosen; c++)
                    taken |= chosen[c] == k;
                if (!taken && t->apps[k].ran &&
                    (!top || t->apps[k].pp_app > t->apps[top].pp_app ||
                     (t->apps[k].pp_app == t->apps[top].pp_app &&
                      mean_of(t->apps[k].app, t->n_devs) > mean_of(t->apps[top].app, t->n_devs))))
                    top = k;
            }
            if (!top)
                break;
            chosen[n_chosen++] = top;
        }
        /* One variant is its workload's best everywhere: nothing to rank. */
        if (n_variants < 2 || !n_chosen)
            continue;
        char dat[64], svg[64], title[256], q[512], name[COMPARE_LABEL_MAX * 2];
        struct clmem_output out;
        if ((status = plots_file_name(pl, t->apps[w].workload, "pp", "dat", dat)) ||
            (status = plots_file_name(pl, t->apps[w].workload, "pp", "svg", svg)) ||
            (status = plot_open(&out, pl->dir, dat, pl->err)))
            break;
        fprintf(out.file, "# per variant: k, its application efficiency on the k-th most "
                          "efficient entry, PP over the first k, that entry's linetype\n");
        for (size_t c = 0; c < n_chosen; c++) {
            const struct pp_app *a = &t->apps[chosen[c]];
            fputs("# ", out.file);
            plot_data_string(out.file, a->variant);
            fputc('\n', out.file);
            for (size_t d = 0; d < t->n_devs; d++)
                order[d] = (struct ranked_eff){a->app[d], d};
            qsort(order, t->n_devs, sizeof *order, by_efficiency);
            for (size_t k = 0; k < t->n_devs; k++) {
                prefix[k] = order[k].e;
                fprintf(out.file, "%zu %.17g %.17g %zu\n", k + 1, order[k].e,
                        compare_pp_mean(prefix, k + 1), order[k].entry + 1);
            }
            fputs("\n\n", out.file);
        }
        if ((status = clmem_output_commit(&out, pl->err)))
            break;
        snprintf(title, sizeof title, "%s: application efficiency, most efficient device first",
                 t->apps[w].workload);
        plots_key_reset(pl);
        size_t longest = pl->longest;
        for (size_t c = 0; c < n_chosen; c++)
            longest = strlen(t->apps[chosen[c]].variant) + 10 > longest
                          ? strlen(t->apps[chosen[c]].variant) + 10
                          : longest;
        plot_begin(pl->gp, svg, 720, pl->n_devs + n_chosen, longest);
        fprintf(pl->gp,
                "set title '%s'\nset xlabel 'devices, most efficient first'\n"
                "set ylabel 'efficiency; PP of the first k (lines)'\nset xrange [0.5:%zu.5]\n"
                "set yrange [0:1.05]\nset xtics 1\n",
                plot_quoted(title, q, sizeof q), t->n_devs);
        fputs("plot ", pl->gp);
        size_t clauses = 0;
        for (size_t c = 0; c < n_chosen; c++) {
            fprintf(pl->gp,
                    "%s'%s' index %zu using 1:3 with lines linecolor rgb '#333333' dashtype %zu "
                    "linewidth 2 notitle, \\\n  '' index %zu using 1:2:4 with points "
                    "linecolor variable pointtype 7 pointsize 1.3 notitle",
                    clauses++ ? ", \\\n  " : "", dat, c, c + 1, c);
        }
        /* The key: the entries' colours (points), the variants' dashes. */
        for (size_t d = 0; d < pl->n_devs; d++)
            fprintf(pl->gp, ", \\\n  NaN with points linecolor %zu pointtype 7 title '%s'", d + 1,
                    plot_quoted(pl->labels[d], name, sizeof name));
        for (size_t c = 0; c < n_chosen; c++) {
            char pp[32];
            const struct pp_app *a = &t->apps[chosen[c]];
            snprintf(pp, sizeof pp, isnan(a->pp_app) ? "n/a" : "%.2f", a->pp_app);
            fprintf(pl->gp,
                    ", \\\n  NaN with lines linecolor rgb '#333333' dashtype %zu linewidth 2 "
                    "title '%s (PP %s)'",
                    c + 1, plot_quoted(a->variant, name, sizeof name), pp);
        }
        fputs("\nunset xrange\nunset yrange\nset xtics autofreq\nset autoscale xy\n", pl->gp);
        char note[512] = "";
        if (n_variants > n_chosen)
            snprintf(note, sizeof note,
                     "The %zu variants of the highest PP of %zu; every one is in the table.",
                     n_chosen, n_variants);
        if ((status = plot_add_picture(pl->p, svg, note, pl->err)))
            break;
        pl->p->pictures[pl->p->n - 1].portability = 1;
    }
done:
    free(order);
    free(chosen);
    free(prefix);
    return status;
}