// A compile error on the line marked below, for spvi.BuildError.
kernel void broken(global int *out) {
  out[0] = undeclared_name; // line of: error
}
