// Work-groups smaller than a warp with sub-group built-ins and operations (tests/unit/test_pack.c),
// apart from pack.cl because a module using sub-groups runs at a warp width that is a multiple of
// the sub-group size (docs/semantics.md "Sub-groups"), which would hide widths 1 and 7 there.

// Packed: the sub-group built-ins alone (no sub-group operation); sub-groups are cut from the
// local linear id.
kernel void pack_sg_ids(global uint *out) {
  size_t g = get_global_id(0);
  out[3 * g] = get_sub_group_id();
  out[3 * g + 1] = get_sub_group_local_id();
  out[3 * g + 2] = get_sub_group_size() + 1000u * get_num_sub_groups();
}

// Not packed (a sub-group collective): the sum of the global ids of the work-item's sub-group.
kernel void small_subgroup(global uint *out) {
  out[get_global_id(0)] = sub_group_reduce_add((uint)get_global_id(0)) + 100000u * get_sub_group_id();
}
