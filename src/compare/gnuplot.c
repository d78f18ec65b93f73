/* What the comparison report's pictures share, whatever they draw
 * (plots.c: the report's pictures; roofline.c: a roofline per entry):
 * their files, text written for gnuplot, log-scale axis ends, the list of
 * pictures, and gnuplot itself: the script's SVG settings, finding it on
 * the PATH and running it. */
#include "compare/model.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every entry's colour: Okabe and Ito's colour-blind-safe palette
 * (without its yellow, which vanishes on white), then Paul Tol's muted
 * one for the entries beyond it; past these an entry's colour repeats
 * with other dashes and points. */
static const char *const palette[PLOT_COLOURS] = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
    "#000000", "#882255", "#44AA99", "#999933", "#332288", "#AA4499",
};

const char *plot_colour(size_t d)
{
    return palette[d % PLOT_COLOURS];
}

/* The pictures' common settings: a size whose text stays readable when
 * the page scales a picture down to a phone's width. Linetype d+1 is
 * entry d's in every picture: its colour, its dashes (where a picture's
 * dashes do not tell variants apart) and its point; no two entries share
 * all three. */
static const char terminal[] = "set terminal svg size %zu,%zu dynamic noenhanced font 'sans,13' "
                               "linewidth 1.5\n";

void plot_script_start(FILE *gp, size_t n_entries)
{
    fprintf(gp, terminal, (size_t)720, (size_t)520);
    fputs("set grid\nset key below maxrows 6\nset style fill solid 0.85 noborder\n", gp);
    /* Point types that read apart in SVG: circle, square, triangles,
     * diamond, filled and open, then the crosses. */
    static const int points[] = {7, 5, 9, 11, 13, 6, 4, 8, 10, 12, 1, 2, 3};
    /* Dashes: solid, then patterns of dash and gap lengths that differ. */
    static const char *const dashes[] = {"1",         "(8,4)",     "(2,3)",          "(10,3,2,3)",
                                         "(4,4)",     "(16,5)",    "(10,3,2,3,2,3)", "(1,2)",
                                         "(6,2,1,2)", "(20,4,4,4)"};
    size_t n = n_entries > PLOT_COLOURS ? n_entries : PLOT_COLOURS;
    for (size_t d = 0; d < n; d++)
        fprintf(gp, "set linetype %zu linecolor rgb '%s' dashtype %s pointtype %d pointsize 1\n",
                d + 1, plot_colour(d), dashes[(d + d / PLOT_COLOURS) % CLMEM_ARRAY_SIZE(dashes)],
                points[(d + d / PLOT_COLOURS) % CLMEM_ARRAY_SIZE(points)]);
    fprintf(gp, "set linetype cycle %zu\n", n);
}

size_t plot_begin(FILE *gp, const char *svg, size_t width, size_t key_entries, size_t longest)
{
    /* About 7.5 pixels a character at 13 points, the sample before the
     * text: as many columns as fit across, as many rows as it takes, and
     * the picture taller by those rows so that the plot keeps its room. */
    size_t column = (size_t)((double)longest * 7.5) + 80;
    size_t cols = width > 40 ? (width - 40) / column : 1;
    cols = cols ? cols : 1;
    size_t rows = (key_entries + cols - 1) / cols;
    size_t height = (size_t)420 + 21 * rows;
    fprintf(gp, terminal, width, height);
    fprintf(gp, "set key below horizontal maxcols %zu maxrows %zu\nset output '%s'\n", cols,
            rows ? rows : 1, svg);
    return height;
}

int plot_open(struct clmem_output *out, const char *dir, const char *name, struct clmem_error *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return clmem_output_open(out, path, err);
}

/* Text inside a gnuplot '...' string: ' doubled, as gnuplot reads it
 * (nothing else is special there, @ and backquotes included); a control
 * character (a line break in a name from a file) becomes a space. */
const char *plot_quoted(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (; *text && n + 2 < size; text++) {
        unsigned char c = (unsigned char)*text;
        if (c == '\'')
            out[n++] = '\'';
        out[n++] = c < 0x20 || c == 0x7f ? ' ' : *text;
    }
    out[n] = '\0';
    return out;
}

/* A string column of a data file, in "...": a " inside would end it, a
 * line break the row. */
void plot_data_string(FILE *f, const char *text)
{
    fputc('"', f);
    for (; *text; text++) {
        unsigned char c = (unsigned char)*text;
        fputc(c == '"' ? '\'' : c < 0x20 || c == 0x7f ? ' ' : *text, f);
    }
    fputc('"', f);
}

double plot_axis(double v)
{
    const double lo = 0x1p-1000, hi = 0x1p1000;
    return isnan(v) ? 1 : v < lo ? lo : v > hi ? hi : v;
}

int plot_usable(const struct clmem_result *r)
{
    return !r->skipped && r->verified && !isnan(r->metric);
}

int plot_add_picture(struct compare_plots *p, const char *file, const char *text,
                     struct clmem_error *err)
{
    struct compare_picture *more = realloc(p->pictures, (p->n + 1) * sizeof *more);
    if (!more)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    p->pictures = more;
    snprintf(more[p->n].file, sizeof more[p->n].file, "%s", file);
    snprintf(more[p->n].note, sizeof more[p->n].note, "%s", text ? text : "");
    more[p->n].glance = 0;
    more[p->n].portability = 0;
    more[p->n].hierarchy = 0;
    more[p->n].bounds = 0;
    p->n++;
    return CLMEM_OK;
}

void compare_plots_free(struct compare_plots *plots)
{
    free(plots->pictures);
    memset(plots, 0, sizeof *plots);
}

/* ---- gnuplot ---- */

int compare_gnuplot_run(const char *dir)
{
    /* Signals held across fork: the child must not run clmem's handlers
     * (they would remove the parent's files) before it has its own. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid == 0) {
        /* Its own process group, which a stop at once kills whole. */
        setpgid(0, 0);
        for (size_t i = 0; i < CLMEM_N_STOP_SIGNALS; i++) {
            struct sigaction now;
            if (sigaction(clmem_stop_signals[i], NULL, &now) == 0 && now.sa_handler != SIG_IGN)
                signal(clmem_stop_signals[i], SIG_DFL);
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        int log = -1;
        if (chdir(dir) == 0)
            log = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_RDWR);
        if (log < 0 || null < 0)
            _exit(127);
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
        _exit(127);
    }
    int slot = -1;
    if (pid > 0) {
        setpgid(pid, pid);
        slot = clmem_output_pending_child(pid);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pid < 0)
        return -1;
    int rc, got;
    while ((got = waitpid(pid, &rc, 0)) != pid && errno == EINTR)
        ;
    clmem_output_pending_release(slot);
    if (got != pid)
        return -1;
    return WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? 0 : -1;
}

int compare_gnuplot_found(void)
{
    const char *path = getenv("PATH");
    char file[1100];
    for (const char *p = path ? path : ""; *p;) {
        const char *end = strchr(p, ':');
        int len = (int)(end ? (size_t)(end - p) : strlen(p));
        snprintf(file, sizeof file, "%.*s/gnuplot", len ? len : 1, len ? p : ".");
        if (access(file, X_OK) == 0)
            return 1;
        p = end ? end + 1 : p + len;
    }
    return 0;
}
