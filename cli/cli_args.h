/*
 * cli_args.h — the grammar of `spvi run` kernel arguments, turned into the bytes handed to the
 * library:
 *   by value   TYPE:V[,V...]            e.g. int:-3  float4:1,2,3,4  half:1.5  double:nan
 *              bytes:HEX | bytes:@FILE  raw bytes of a by-value struct (size = parameter size)
 *   buffer     TYPE[COUNT] | TYPE[COUNT]=INIT | TYPE[]=V,V,... | TYPE[]=@PATH
 *              INIT: V,V,...  fill(V) | fill(V1,...,Vw)  range(START[,STEP])
 *                    random(SEED[,LO,HI])  @PATH (.npy of any C-order shape holding COUNT
 *                    elements, or raw little-endian bytes); TYPE[] takes COUNT from the list
 *                    or the (regular) file
 *              null                     a null pointer (clSetKernelArg with a NULL buffer)
 *   __local    local:BYTES
 *   image      IMAGETYPE:ORDER:CHANNELTYPE:DIMS[=INIT]   e.g. image2d:rgba:unorm8:64,32=@pixels.npy
 *              (INIT as for buffers, over the raw channel values in memory order)
 *   sampler    sampler:NORM,ADDRESS,FILTER               e.g. sampler:normalized,repeat,linear
 * Buffer and image arguments are built in place as spvi memory objects (spvi_buffer_new,
 * spvi_image_new: spvi-owned, zero-filled bytes; an @FILE initialiser is read straight into them),
 * which the launch then uses without a copy (spvi_set_arg_mem). Beyond those objects and the
 * library's image-format functions nothing here needs a module or a launch, so the unit test
 * exercises it without running a kernel.
 */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include "cli_npy.h"
#include "cli_types.h"
#include "spvi.h"

/* CLI_ARG_NULL: `null` for a buffer parameter, no bytes (data, mem NULL). */
typedef enum cli_arg_kind {
  CLI_ARG_VALUE,
  CLI_ARG_BUFFER,
  CLI_ARG_LOCAL,
  CLI_ARG_IMAGE,
  CLI_ARG_SAMPLER,
  CLI_ARG_NULL
} cli_arg_kind;

typedef struct cli_arg {
  cli_arg_kind kind;
  bool typed;            /* false for bytes:... (no element type known) */
  cli_elem elem;         /* type of the value, or of one buffer element */
  size_t count;          /* buffer elements; 1 for a value */
  unsigned char *data;   /* value bytes (malloc'd), or a buffer's or image's initial contents: the
                            bytes of `mem`; NULL for local and sampler */
  size_t bytes;          /* size of data; for local, the requested size */
  spvi_mem *mem;         /* CLI_ARG_BUFFER, CLI_ARG_IMAGE: the memory object holding `data` (one
                            reference, dropped by cli_arg_free); NULL otherwise */
  spvi_image_desc image; /* CLI_ARG_IMAGE (elem: the channel's scalar type, count: channel values) */
  spvi_sampler sampler;  /* CLI_ARG_SAMPLER */
  unsigned ndim;         /* CLI_ARG_BUFFER from a .npy file: the shape --out writes it in (the
                            file's, with a packed trailing 3 of 3-element vectors made 4); 0 else */
  size_t shape[CLI_NPY_MAX_DIMS];
  bool shape_in_structs; /* the shape counts structs (the input was a structured .npy) */
  spvi_struct *layout;   /* CLI_ARG_BUFFER of a struct pointer parameter: the struct's layout for --out
                          and --print (set and freed by the caller: spvi_param_struct), else NULL */
} cli_arg;

/* The individual forms (text is the whole argument). On failure *out holds nothing to free. */
bool cli_parse_value(const char *text, cli_arg *out, cli_error *e);
/* bytes:HEX or bytes:@FILE; a FILE is read up to max bytes (the parameter's size) and no further. */
bool cli_parse_bytes(const char *text, size_t max, cli_arg *out, cli_error *e);
bool cli_parse_buffer(const char *text, cli_arg *out, cli_error *e);
bool cli_parse_local(const char *text, cli_arg *out, cli_error *e);
bool cli_parse_image(const char *text, cli_arg *out, cli_error *e);
bool cli_parse_sampler(const char *text, cli_arg *out, cli_error *e);
/* The shape of an image's --out .npy: (W, C), (N, W, C), (H, W, C), (N, H, W, C) or (D, H, W, C). */
unsigned cli_image_shape(const spvi_image_desc *d, size_t shape[4]);

/* Parses the argument for parameter p, choosing the form by p's kind and checking that the type
 * written agrees with p's (see docs/cli.md, "Kernel arguments", for the rules). */
bool cli_arg_for_param(const char *text, const spvi_param_info *p, cli_arg *out, cli_error *e);
/* The same for a parameter pointing to a struct of layout `layout` (spvi_param_struct; NULL for
 * others): its buffer also takes a structured .npy file whose item size, field offsets and types
 * are the struct's (docs/cli.md). out->layout is not set. */
bool cli_arg_for_struct_param(const char *text, const spvi_param_info *p, const spvi_struct *layout, cli_arg *out,
                              cli_error *e);
/* Frees a value's bytes or drops the argument's reference to its memory object (a launch the object
 * was set on keeps its own); data and mem become NULL, the description fields stay. */
void cli_arg_free(cli_arg *a);

/* "global float* a", "uint n": how messages and `spvi info` show a parameter. */
const char *cli_param_desc(const spvi_param_info *p, char *buf, size_t cap);

/* Reads a whole file (also pipes) of at most max bytes into a malloc'd buffer; a longer one is an
 * error after max + 1 bytes, whose message ends with why (what the limit is). */
bool cli_read_file(const char *path, size_t max, const char *why, unsigned char **data, size_t *size, cli_error *e);

#endif
