/* An option table's help (options.h): each option's head and text, a
 * command's --help, words wrapped at HELP_WIDTH. */
#include "option_help.h"

#include "options.h"

#include <string.h>

/* ---- help ---- */

#define HELP_WIDTH 79

/* `text` from column `at` (the cursor is there), words wrapped at
 * HELP_WIDTH, continuation lines indented to `indent`. */
static void wrap(FILE *out, const char *text, size_t at, size_t indent)
{
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (at > indent && at + 1 + word > HELP_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            at = indent;
        } else if (at > indent) {
            fputc(' ', out);
            at++;
        }
        fprintf(out, "%.*s", (int)word, p);
        at += word;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

/* "--name ARGH", "--name[=ARGH]" or "--name". */
void cli_option_head(const struct cli_option *opt, char *out, size_t size)
{
    if (opt->type == CLI_FLAG)
        snprintf(out, size, "--%s", opt->name);
    else if (opt->optional)
        snprintf(out, size, "--%s[=%s]", opt->name, opt->argh);
    else
        snprintf(out, size, "--%s %s", opt->name, opt->argh);
}

/* The option's help line: its text, its range and default, its alias. */
void cli_option_text(const struct cli_option *opt, const struct cli_use *use, char *out,
                     size_t size)
{
    char range[96] = "", def[160] = "", alias[64] = "";
    if (opt->type == CLI_UINT && !(opt->min == 0 && opt->max == UINT64_MAX))
        snprintf(range, sizeof range, ", %llu to %llu", opt->min, opt->max);
    if (opt->type == CLI_PERCENT)
        snprintf(range, sizeof range, ", 0 to %llu", opt->max);
    if (opt->type == CLI_DURATION)
        snprintf(range, sizeof range, ", 1 s to %llu h", opt->max / 3600);
    const char *def_help = use->def_help              ? use->def_help
                           : use->flags & CLI_DEFAULT ? use->def_text
                                                      : opt->def_help;
    /* "(default 5)", "(default all)", "(default: the first GPU)" */
    if (def_help)
        snprintf(def, sizeof def, " (default%s%s)", strchr(def_help, ' ') ? ": " : " ", def_help);
    else if (opt->def_text)
        snprintf(def, sizeof def, " (default %s)", opt->def_text);
    else if (opt->type == CLI_UINT || opt->type == CLI_PERCENT)
        snprintf(def, sizeof def, " (default %llu)",
                 use->flags & CLI_DEFAULT ? use->def : opt->def);
    if (opt->alias)
        snprintf(alias, sizeof alias, "; --%s is the same option", opt->alias);
    const char *one = use->flags & CLI_ONE_DEVICE         ? "; here one device, not several"
                      : use->flags & CLI_ONE_DEVICE_ALONE ? "; one device, except under mpirun"
                                                          : "";
    snprintf(out, size, "%s%s%s%s%s", use->help ? use->help : opt->help, range, def, one, alias);
}

void cli_help(const struct cli_spec *spec, FILE *out)
{
    fprintf(out, "usage: clmem %s%s%s\n\n", spec->name, spec->synopsis[0] ? " " : "",
            spec->synopsis);
    fprintf(out, "%s", spec->about);
    size_t width = 20; /* the widest head and two spaces, at least 20 */
    char head[64], text[1024];
    for (size_t i = 0; i < spec->n_uses; i++) {
        cli_option_head(cli_option(spec->uses[i].id), head, sizeof head);
        if (strlen(head) + 2 > width)
            width = strlen(head) + 2;
    }
    if (spec->n_uses)
        fprintf(out, "\noptions:\n");
    for (size_t i = 0; i < spec->n_uses; i++) {
        const struct cli_option *opt = cli_option(spec->uses[i].id);
        cli_option_head(opt, head, sizeof head);
        cli_option_text(opt, &spec->uses[i], text, sizeof text);
        fprintf(out, "  %-*s", (int)width, head);
        wrap(out, text, 2 + width, 2 + width);
    }
    if (spec->more)
        fprintf(out, "\n%s", spec->more);
}
