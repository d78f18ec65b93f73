/* CSV's quoting, shared by the writers of src/report/ (results, diff).
 * Not libclmem's interface. */
#ifndef CLMEM_REPORT_CSV_H
#define CLMEM_REPORT_CSV_H

#include <stdio.h>

/* Writes one field, quoted as RFC 4180 asks when it holds a comma, a quote
 * or a line break. */
void clmem_csv_field(FILE *out, const char *text);

#endif
