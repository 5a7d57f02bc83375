/* bench kernel bfs: one breadth-first-search step, bottom-up ("pull", as in direction-optimising
 * BFS): every node not yet reached (level == UINT_MAX) scans its neighbours in the CSR graph
 * (row_ptr, col; the graph is undirected: both directions stored) and stops at the first one on
 * the frontier (level == cur); it is then at level cur + 1. Each work-item writes only its own
 * node's next_level, and the count of newly reached nodes (the host's "frontier not empty" test)
 * is an atomic_inc: no data race, and a result that does not depend on the schedule. Divergent,
 * data-dependent loops: the scan length is the node's degree (irregular) or the position of the
 * first frontier neighbour. Integers: exact. */
__kernel void bfs(__global const uint *row_ptr, __global const uint *col, __global const uint *level,
                  __global uint *next_level, __global uint *reached, int cur) {
  size_t v = get_global_id(0);
  uint lv = level[v];
  if (lv == UINT_MAX) {
    for (uint p = row_ptr[v]; p < row_ptr[v + 1]; p++)
      if (level[col[p]] == (uint)cur) {
        lv = (uint)cur + 1;
        atomic_inc(reached);
        break;
      }
  }
  next_level[v] = lv;
}
