// Debugger test kernel (tests/debug/run.sh): `local` arrays of one, three dimensions and of structs
// declared in a kernel. The scripts name line numbers of this file: keep them stable.
typedef struct { int a; float b[2]; } rec;
kernel void locals(global int *out) {
  local int one[5];
  local short three[2][3][4];
  local rec recs[3];
  size_t l = get_local_id(0);
  one[l] = (int)l * 2;
  three[1][2][l] = (short)(l + 100);
  if (l < 3) recs[l].a = (int)l * 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = one[l] + three[1][2][l] + recs[l % 3].a;
}
