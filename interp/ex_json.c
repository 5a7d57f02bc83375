/*
 * ex_json.c — faults and check reports as JSON lines (spvi run --report FILE, spvi exec --report):
 * every field of the public structs is written, so a CI system never has to parse the
 * human-readable message. The schema is in docs/checks.md, "JSON reports".
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "spvi.h"

/* A JSON string: quotes, backslashes and control characters escaped (RFC 8259 section 7). */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", f);
    else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

static void json_ids(FILE *f, const char *name, const size_t v[3]) {
  fprintf(f, "\"%s\":[%zu,%zu,%zu]", name, v[0], v[1], v[2]);
}

/* "instruction", "result_id", "function", "file", "line", "column" */
static void json_where(FILE *f, const char *opcode, uint32_t result_id, const char *function, const char *file,
                       unsigned line, unsigned column) {
  fputs("\"instruction\":", f);
  json_str(f, opcode);
  fprintf(f, ",\"result_id\":%" PRIu32 ",\"function\":", result_id);
  json_str(f, function);
  fputs(",\"file\":", f);
  json_str(f, file);
  fprintf(f, ",\"line\":%u,\"column\":%u", line, column);
}

static void json_site(FILE *f, const spvi_site *s, bool memory) {
  fputc('{', f);
  json_ids(f, "global_id", s->global_id);
  fputc(',', f);
  json_ids(f, "local_id", s->local_id);
  fputc(',', f);
  json_ids(f, "group_id", s->group_id);
  fputc(',', f);
  json_where(f, s->opcode, s->result_id, s->function, s->file, s->line, s->column);
  if (memory) fprintf(f, ",\"access\":\"%s%s\"", s->atomic ? "atomic " : "", s->write ? "write" : "read");
  fputc('}', f);
}

static void json_memory(FILE *f, const char *memory, int arg, int64_t offset, uint64_t size, uint64_t memory_size) {
  fputs(",\"memory\":", f);
  if (!memory[0]) {
    fputs("null", f);
    return;
  }
  fputs("{\"name\":", f);
  json_str(f, memory);
  fprintf(f, ",\"arg_index\":%d,\"offset\":%" PRId64 ",\"size\":%" PRIu64 ",\"memory_size\":%" PRIu64 "}", arg, offset,
          size, memory_size);
}

/* The caller's extra members (`"enqueue":3,...`), then the end of the line. */
static void json_end(FILE *f, const char *extra) {
  if (extra && extra[0]) fprintf(f, ",%s", extra);
  fputs("}\n", f);
}

void spvi_report_write_json(FILE *f, const spvi_report *r, const char *extra) {
  bool mem = r->kind == SPVI_REPORT_RACE || r->kind == SPVI_REPORT_UNINIT;
  fprintf(f, "{\"type\":\"report\",\"check\":\"%s\",\"severity\":\"error\",\"kernel\":", spvi_report_kind_id(r->kind));
  json_str(f, r->kernel);
  fprintf(f, ",\"count\":%" PRIu64 ",\"at\":", r->count);
  json_site(f, &r->at, mem);
  fputs(",\"other\":", f);
  if (r->has_other) json_site(f, &r->other, mem);
  else fputs("null", f);
  json_memory(f, r->memory, r->arg_index, r->offset, r->access_size, r->memory_size);
  fputs(",\"origin\":", f);
  if (r->origin[0]) {
    fputs("{\"name\":", f);
    json_str(f, r->origin);
    fputs(",\"file\":", f);
    json_str(f, r->origin_file);
    fprintf(f, ",\"line\":%u}", r->origin_line);
  } else {
    fputs("null", f);
  }
  fputs(",\"message\":", f);
  json_str(f, r->message);
  json_end(f, extra);
}

void spvi_fault_write_json(FILE *f, const spvi_fault *x, const char *extra) {
  fprintf(f, "{\"type\":\"fault\",\"check\":\"%s\",\"severity\":\"error\",\"kernel\":", spvi_fault_kind_id(x->kind));
  json_str(f, x->kernel);
  /* the faulting work-item as a site, so both kinds of line have the same "at" object */
  spvi_site at;
  memset(&at, 0, sizeof at);
  memcpy(at.global_id, x->global_id, sizeof at.global_id);
  memcpy(at.local_id, x->local_id, sizeof at.local_id);
  memcpy(at.group_id, x->group_id, sizeof at.group_id);
  at.result_id = x->result_id;
  snprintf(at.opcode, sizeof at.opcode, "%s", x->opcode);
  snprintf(at.function, sizeof at.function, "%s", x->function);
  snprintf(at.file, sizeof at.file, "%s", x->file);
  at.line = x->line;
  at.column = x->column;
  fputs(",\"count\":1,\"at\":", f);
  json_site(f, &at, false);
  fputs(",\"other\":null", f);
  json_memory(f, x->memory, x->arg_index, x->offset, x->access_size, x->memory_size);
  fputs(",\"message\":", f);
  json_str(f, x->message);
  json_end(f, extra);
}
