/* bench kernel nbody: one time step of n bodies, one work-item per body i (all-pairs, the body
 * itself included: its term is 0): a = sum over j of m_j d / (|d|^2 + eps2)^(3/2) with d = p_j - p_i,
 * using rsqrt; then v' = v + a dt and p' = p + v' dt. Contraction is off and the sum runs in
 * increasing j, so the only rounding an implementation may choose is rsqrt's (2 ulp in OpenCL C):
 * bench_ref2.c checks a correctly rounded rsqrt (spvi) bit-exactly and others within the bound
 * that error implies. Positions and velocities are xyz triples, masses separate. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void nbody(__global const float *pos, __global const float *vel, __global const float *mass,
                    __global float *pos_out, __global float *vel_out, float dt, float eps2, int n) {
  int i = (int)get_global_id(0);
  float px = pos[3 * i], py = pos[3 * i + 1], pz = pos[3 * i + 2];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = pos[3 * j] - px, dy = pos[3 * j + 1] - py, dz = pos[3 * j + 2] - pz;
    float inv = rsqrt(dx * dx + dy * dy + dz * dz + eps2);
    float s = mass[j] * (inv * inv * inv);
    ax = ax + dx * s;
    ay = ay + dy * s;
    az = az + dz * s;
  }
  float vx = vel[3 * i] + ax * dt, vy = vel[3 * i + 1] + ay * dt, vz = vel[3 * i + 2] + az * dt;
  vel_out[3 * i] = vx;
  vel_out[3 * i + 1] = vy;
  vel_out[3 * i + 2] = vz;
  pos_out[3 * i] = px + vx * dt;
  pos_out[3 * i + 1] = py + vy * dt;
  pos_out[3 * i + 2] = pz + vz * dt;
}
