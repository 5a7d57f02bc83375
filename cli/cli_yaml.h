/*
 * cli_yaml.h — a YAML document as the cJSON tree a JSON document would give (cli_yaml.c), for
 * `spvi test`'s YAML case files.
 */
#ifndef CLI_YAML_H
#define CLI_YAML_H

#include <stddef.h>

struct cJSON;

/* Parses `len` bytes of YAML (the first document); NULL with the reason, "line N: ...", in why. */
struct cJSON *cli_yaml_parse(const char *text, size_t len, char *why, size_t cap);

#endif
