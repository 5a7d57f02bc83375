// cl-std: CL2.0
// Debug information as llvm-spirv-14 writes it and SPIRV-Tools 2023.1 rejects (test_cli.sh,
// "debug information"): compiled with -g, it has a DebugTypeFunction with a DebugInfoNone return
// type (put returns void), a DebugTypeMember naming its struct before the struct is defined
// (struct node points to itself) and a DebugTypePointer with storage class 0xFFFFFFFF (event_t).
// out[i] = tmp[l] * 3 + 1 (p is null) with tmp = in = 0, 1, 2, ...: 3i + 1 for a work-group of 8.
struct node {
  struct node *next;
  int v;
};

void put(global int *out, size_t i, int v) { out[i] = v; }

kernel void dbg(global int *out, global const int *in, local int *tmp) {
  event_t e = async_work_group_copy(tmp, in, 8, 0);
  wait_group_events(1, &e);
  size_t l = get_local_id(0);
  struct node *p = 0;
  put(out, get_global_id(0), tmp[l] * 3 + (p ? p->v : 1));
}
