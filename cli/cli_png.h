/*
 * cli_png.h — `--out DIR` pictures of image arguments: each 2D image (and each layer of a 2D
 * array, each slice of a 3D image; a 1D image as one row, a 1D array as one row per layer) as a
 * PNG file beside its .npy, through libpng. The channel conversion is docs/cli.md's ("Images").
 */
#ifndef CLI_PNG_H
#define CLI_PNG_H

#include "cli_out.h"
#include "cli_types.h"
#include "spvi.h"

/* Writes DIR/argI.png (1D, 1D array, 2D) or DIR/argI.K.png for layer or slice K (2D array, 3D)
 * of the image d whose pixels (memory order, as spvi_arg_image returns them) are data. False
 * after saying why (cli_out_path's message, or e). */
bool cli_png_write_image(cli_out *out, int index, const spvi_image_desc *d, const unsigned char *data, cli_error *e);

#endif
