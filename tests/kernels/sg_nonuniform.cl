// The cl_khr_subgroup_ballot, _non_uniform_vote, _non_uniform_arithmetic, _shuffle,
// _shuffle_relative and _clustered_reduce functions in divergent control flow: inside
// `if (v % 3 != 0)` only those work-items of a sub-group are active (OpenCL C: "active work
// items"); the else branch works on the complementary set. For tests/unit/test_subgroups.c.
#define NN 32
kernel void sg_nonuniform(global const int *in, global uint *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  uint lid = get_sub_group_local_id();
  global uint *o = out + i * NN;
  o[27] = get_sub_group_eq_mask().x;
  o[28] = get_sub_group_ge_mask().x;
  o[29] = get_sub_group_gt_mask().y;
  o[30] = get_sub_group_le_mask().x;
  o[31] = get_sub_group_lt_mask().x;
  if (v % 3 != 0) {
    uint4 b = sub_group_ballot(v & 1);
    o[0] = b.x;
    o[1] = b.y;
    uint cnt = sub_group_ballot_bit_count(b);
    o[2] = cnt;
    o[3] = sub_group_ballot_inclusive_scan(b);
    o[4] = sub_group_ballot_exclusive_scan(b);
    o[5] = cnt ? sub_group_ballot_find_lsb(b) : 1000u;
    o[6] = cnt ? sub_group_ballot_find_msb(b) : 1000u;
    o[7] = sub_group_inverse_ballot(b) != 0;
    o[8] = sub_group_ballot_bit_extract(b, 2) != 0;
    o[9] = sub_group_elect() != 0;
    o[10] = sub_group_non_uniform_all(v > 0) != 0;
    o[11] = (sub_group_non_uniform_any(v > 14) != 0) + 2 * (sub_group_non_uniform_all_equal(v / 100) != 0) +
            4 * (sub_group_non_uniform_all_equal(v) != 0);
    o[12] = (uint)sub_group_broadcast_first(v);
    uint first = sub_group_ballot_find_lsb(sub_group_ballot(1));
    o[13] = (uint)sub_group_non_uniform_broadcast(v, first);
    o[14] = (uint)sub_group_non_uniform_reduce_add(v);
    o[15] = (uint)sub_group_non_uniform_scan_inclusive_mul(v);
    o[16] = (uint)sub_group_non_uniform_scan_exclusive_min(v);
    o[17] = (uint)sub_group_non_uniform_reduce_and(v);
    o[18] = (uint)sub_group_non_uniform_reduce_or(v);
    o[19] = (uint)sub_group_non_uniform_scan_inclusive_xor(v);
    o[20] = (uint)sub_group_non_uniform_reduce_logical_xor(v & 2);
    o[21] = (uint)sub_group_shuffle(v, lid ^ 1);
    o[22] = (uint)sub_group_shuffle_xor(v, 2);
    o[23] = (uint)sub_group_shuffle_up(v, 1);
    o[24] = (uint)sub_group_shuffle_down(v, 2);
    o[25] = (uint)sub_group_clustered_reduce_add(v, 4);
    o[26] = (uint)sub_group_clustered_reduce_max(v, 2);
  } else {
    o[14] = (uint)sub_group_non_uniform_reduce_add(v * 10);
    o[16] = (uint)sub_group_non_uniform_scan_exclusive_max(v);
  }
}

// Floating-point and wide integer non-uniform arithmetic (uniform control flow): sums and products
// in increasing sub-group local id order, fmin/fmax.
kernel void sg_nonuniform_types(global const int *in, global float *f, global double *d, global long *l, global short *s) {
  size_t i = get_global_id(0);
  int v = in[i];
  f[3 * i] = sub_group_non_uniform_scan_inclusive_add((float)v * 0.75f);
  f[3 * i + 1] = sub_group_non_uniform_reduce_mul(1.0f + (float)v / 64.0f);
  f[3 * i + 2] = sub_group_non_uniform_reduce_min((float)v - 0.5f);
  d[i] = sub_group_non_uniform_scan_exclusive_add((double)v * 0.1);
  l[i] = sub_group_non_uniform_reduce_max((long)v * 3000000000L);
  s[i] = sub_group_non_uniform_scan_inclusive_add((short)(v * 1000));
}
