#include <incdir.h>
kernel void useinc(global int *p) { p[get_global_id(0)] = FROM_INCDIR + 2; }
