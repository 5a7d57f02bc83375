/*
 * cli_report.h — `spvi run --report FILE`: faults and check reports as JSON lines, one object per
 * line, for CI systems (the schema is in the README, "Checks and reports").
 */
#ifndef CLI_REPORT_H
#define CLI_REPORT_H

#include <stdio.h>

#include "spvi.h"

void cli_report_json(FILE *f, const spvi_report *r);
void cli_fault_json(FILE *f, const spvi_fault *fault);

#endif
