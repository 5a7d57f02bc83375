/*
 * cli_yaml.c — YAML case files for `spvi test`: libyaml (Debian's libyaml-dev) parses the
 * document, and its nodes become the cJSON tree that the JSON case files give, so that one reader
 * (cli_test.c) checks both. Plain scalars are typed as JSON would type them (YAML 1.2's core
 * schema, section 10.3.2: null, true/false, integers, floats, but numbers only in JSON's decimal
 * form: 0x1F, 0o17, .inf and .nan stay strings); quoted scalars are strings.
 */
#include "cli_yaml.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Nesting and node limits: an alias may repeat a whole subtree, so a small file could otherwise
 * expand without bound ("billion laughs"). */
enum { YAML_MAX_DEPTH = 64, YAML_MAX_NODES = 1000000 };

typedef struct yaml_conv {
  yaml_document_t *doc;
  long nodes;
} yaml_conv;

/* A plain scalar as YAML 1.2's core schema reads it. */
static cJSON *yaml_plain(const char *v) {
  static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
    if (strcmp(v, nulls[i]) == 0) return cJSON_CreateNull();
  if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE")) return cJSON_CreateTrue();
  if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "FALSE")) return cJSON_CreateFalse();
  /* numbers: [-+]digits[.digits][e[-+]digits]; not inf/nan, not 0x (strings, as JSON has none) */
  size_t i = v[0] == '-' || v[0] == '+', digits = 0;
  while (v[i] >= '0' && v[i] <= '9') i++, digits++;
  if (v[i] == '.')
    for (i++; v[i] >= '0' && v[i] <= '9'; i++) digits++;
  if (digits && (v[i] == 'e' || v[i] == 'E')) {
    i += 1 + (v[i + 1] == '-' || v[i + 1] == '+');
    size_t e = 0;
    while (v[i] >= '0' && v[i] <= '9') i++, e++;
    if (!e) return cJSON_CreateString(v);
  }
  if (digits && !v[i]) return cJSON_CreateNumber(strtod(v, NULL));
  return cJSON_CreateString(v);
}

static cJSON *yaml_node(yaml_conv *c, yaml_node_t *n, int depth, char *why, size_t cap) {
  if (!n || depth > YAML_MAX_DEPTH || ++c->nodes > YAML_MAX_NODES) {
    snprintf(why, cap, "nested deeper than %d levels or more than %d values (aliases included)", YAML_MAX_DEPTH,
             YAML_MAX_NODES);
    return NULL;
  }
  cJSON *out = NULL;
  switch (n->type) {
  case YAML_SCALAR_NODE: {
    const char *v = (const char *)n->data.scalar.value;
    return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? yaml_plain(v) : cJSON_CreateString(v);
  }
  case YAML_SEQUENCE_NODE:
    out = cJSON_CreateArray();
    for (yaml_node_item_t *it = n->data.sequence.items.start; out && it < n->data.sequence.items.top; it++) {
      cJSON *x = yaml_node(c, yaml_document_get_node(c->doc, *it), depth + 1, why, cap);
      if (!x) {
        cJSON_Delete(out);
        return NULL;
      }
      cJSON_AddItemToArray(out, x);
    }
    return out;
  case YAML_MAPPING_NODE:
    out = cJSON_CreateObject();
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; out && p < n->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
      if (!k || k->type != YAML_SCALAR_NODE) {
        snprintf(why, cap, "line %zu: a mapping key is not a plain string", k ? k->start_mark.line + 1 : 0);
        cJSON_Delete(out);
        return NULL;
      }
      const char *key = (const char *)k->data.scalar.value;
      cJSON *x = cJSON_GetObjectItemCaseSensitive(out, key)
                   ? NULL
                   : yaml_node(c, yaml_document_get_node(c->doc, p->value), depth + 1, why, cap);
      if (!x) {
        if (cJSON_GetObjectItemCaseSensitive(out, key))
          snprintf(why, cap, "line %zu: key `%s` appears twice", k->start_mark.line + 1, key);
        cJSON_Delete(out);
        return NULL;
      }
      cJSON_AddItemToObject(out, key, x);
    }
    return out;
  default: snprintf(why, cap, "an empty document"); return NULL;
  }
}

cJSON *cli_yaml_parse(const char *text, size_t len, char *why, size_t cap) {
  yaml_parser_t p;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&p)) {
    snprintf(why, cap, "out of memory");
    return NULL;
  }
  yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
  cJSON *out = NULL;
  if (!yaml_parser_load(&p, &doc)) {
    snprintf(why, cap, "line %zu: %s", p.problem_mark.line + 1, p.problem ? p.problem : "not valid YAML");
  } else {
    yaml_conv c = {&doc, 0};
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) snprintf(why, cap, "an empty document");
    else out = yaml_node(&c, root, 0, why, cap);
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&p);
  return out;
}
