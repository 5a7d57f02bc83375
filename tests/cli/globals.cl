// cl-std: CL2.0
// A program-scope variable shared by the launches of one `spvi run ... --then ...`.
global int total = 100;

kernel void add(global const int *in) { atomic_add(&total, in[get_global_id(0)]); }

kernel void get(global int *out) { out[get_global_id(0)] = total + (int)get_global_id(0); }
