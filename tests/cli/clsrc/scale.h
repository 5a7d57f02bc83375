/* included by scale.cl as "scale.h": found next to it */
#define FACTOR 3
