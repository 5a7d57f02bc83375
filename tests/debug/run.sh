#!/bin/sh
# run.sh — scripted `spvi debug` sessions (tests/run_all.sh runs it). The kernels here are compiled
# with -g (source lines and variables from OpenCL.DebugInfo.100); twice.spvasm has no line
# information at all. Each session feeds commands on standard input (not a terminal: read plainly
# and echoed after the prompt) and the transcript must contain the expected lines in order; every
# value in them is worked out by hand from the kernel source. Last, the buffers and printf output of
# debugged runs are compared with `spvi run`'s.
#
# usage: BUILD=build sh tests/debug/run.sh      (prints "N passed, N failed"; exit 1 on failure)
#
# Expected lines: whole lines, `\t` is a tab, `...` stands for any text (pointer values, padding).
# Messages quote names in backticks, which the expectations spell literally:
# shellcheck disable=SC2016
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
CLANG=${CLANG:-clang-14}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-14}
HERE=$(dirname "$0")
TMP=$(mktemp -d /tmp/spvi-debug-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM

passed=0
failed=0

if [ ! -x "$SPVI" ]; then
  echo "debug tests: $SPVI is not built (run make first)" >&2
  exit 1
fi

# compile NAME SOURCE OPT [-g]: $TMP/NAME.spv from OpenCL C
compile() {
  if ! "$CLANG" -cl-std=CL2.0 -target spir64 -emit-llvm -c "$3" ${4:-} -Xclang -finclude-default-header "$2" \
      -o "$TMP/$1.bc" 2>"$TMP/cc.log" || ! "$LLVM_SPIRV" "$TMP/$1.bc" -o "$TMP/$1.spv" 2>>"$TMP/cc.log"; then
    echo "debug tests: cannot compile $2 ($3 ${4:-})" >&2
    cat "$TMP/cc.log" >&2
    exit 1
  fi
}
compile calls "$HERE/calls.cl" -O0 -g
compile exchange "$HERE/exchange.cl" -O0 -g
compile exchange_o2 "$HERE/exchange.cl" -O2 -g
compile spin "$HERE/spin.cl" -O0 -g
compile oob "$HERE/oob.cl" -O0 -g
compile tile "$HERE/tile.cl" -O0 -g
compile tile_o2 "$HERE/tile.cl" -O2 -g
compile locals "$HERE/locals.cl" -O0 -g
compile locals_o2 "$HERE/locals.cl" -O2 -g
compile opt "$HERE/opt.cl" -O0 -g
compile opt_o1 "$HERE/opt.cl" -O1 -g
compile opt_o2 "$HERE/opt.cl" -O2 -g
for asm in twice unreadable; do
  if ! spirv-as --preserve-numeric-ids "$HERE/$asm.spvasm" -o "$TMP/$asm.spv" 2>"$TMP/cc.log"; then
    echo "debug tests: cannot assemble $asm.spvasm" >&2
    cat "$TMP/cc.log" >&2
    exit 1
  fi
done

# session NAME STATUS ARGS...: `spvi debug ARGS` with the commands on standard input; the transcript
# goes to $TMP/NAME.out; the exit status must be STATUS.
session() {
  name=$1
  want=$2
  shift 2
  cat >"$TMP/$name.cmds"
  "$SPVI" debug "$@" <"$TMP/$name.cmds" >"$TMP/$name.out" 2>"$TMP/$name.err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $name: exit status $got, expected $want"
    cat "$TMP/$name.err"
    failed=$((failed + 1))
    return 1
  fi
  return 0
}

# expect NAME WHAT: the lines on standard input must appear in $TMP/NAME.out in this order.
expect() {
  cat >"$TMP/want"
  if awk -v wantfile="$TMP/want" '
    function matches(line, pat,   parts, n, i, at, rest) {
      gsub(/\\t/, "\t", pat)
      n = split(pat, parts, /\.\.\./)
      if (n == 1) return line == pat
      if (substr(line, 1, length(parts[1])) != parts[1]) return 0
      rest = substr(line, length(parts[1]) + 1)
      for (i = 2; i < n; i++) {
        at = index(rest, parts[i])
        if (!at) return 0
        rest = substr(rest, at + length(parts[i]))
      }
      return length(rest) >= length(parts[n]) && substr(rest, length(rest) - length(parts[n]) + 1) == parts[n]
    }
    BEGIN { while ((getline l < wantfile) > 0) want[++nw] = l; k = 1 }
    { if (k <= nw && matches($0, want[k])) k++ }
    END { if (k <= nw) { print "  missing (in this order): " want[k]; exit 1 } }' "$TMP/$1.out" >"$TMP/why"; then
    passed=$((passed + 1))
  else
    echo "FAIL $1: $2"
    cat "$TMP/why"
    echo "  --- transcript:"
    sed 's/^/  | /' "$TMP/$1.out"
    failed=$((failed + 1))
  fi
}

# ---- source level: stepping, frames, variables, expressions ------------------------------------
# calls(out, v, n=3) over 4 work-items in groups of 2, v[i] = (4i, 4i+1, 4i+2, 4i+3):
# scale(i, gid) = i*gid + 1, so acc = 3 + 3*gid; out[gid] = acc + 3 + arr[gid % 4] + (int)v[gid].y
# = (3 + 3g) + 3 + 10(g + 1) + (4g + 1) = 17 + 17g.
session calls 0 "$TMP/calls.spv" -g 4 -l 2 'int[4]' 'float4[4]=range(0)' int:3 --print <<'EOF'
info args
next
next
next
print gid
print p
print p.b * 4
next
print arr
print arr[2] + arr[3]
break scale
continue
bt
info args
finish
delete
tbreak 16 if i == 2
info breakpoints
continue
print i
print acc
step
step
print t
up
print acc
down
finish
next
next
print i
next
next
print f
print f.y + f.w
print f.lo
print f.s32
print v[1]
print v[1] * 2
print v[1].z > 5
print (int)(f.w * 2.5f)
print acc + p.a + arr[gid % 4] + (int)f.y
print get_global_id(0) + 1
print out[5]
print nosuch
print/x 255
info locals
list
continue
EOF
expect calls "stepping, frames and values in calls.cl" <<'EOF'
Stopped at work-item global (0,0,0) local (0,0,0) group (0,0,0)
calls (out=..., v=..., n=3) at calls.cl:11
11\t  size_t gid = get_global_id(0);
(spvi 0,0,0 calls.cl:11) info args
out = (global int *) ...<out+0>
v = (global float4 *) ...<v+0>
n = (int) 3
(spvi 0,0,0 calls.cl:11) next
12\t  int acc = 0;
13\t  pair p = {3, 0.5f};
14\t  int arr[4] = {10, 20, 30, 40};
(spvi 0,0,0 calls.cl:14) print gid
gid = (size_t) 0
p = (pair) {a = 3, b = 0.5}
p.b * 4 = (float) 2
15\t  for (int i = 0; i < n; i++) {
arr = (int[4]) {10, 20, 30, 40}
arr[2] + arr[3] = (int) 70
Breakpoint 1 at calls.cl:6
Breakpoint 1, scale (x=0, y=0) at calls.cl:6
6\t  int t = x * y;
#0  scale (x=0, y=0) at calls.cl:6
#1  calls (out=..., v=..., n=3) at calls.cl:16
#2  calls (...) at ... [kernel entry point]
x = (int) 0
y = (int) 0
Run till exit from #0  scale (x=0, y=0) at calls.cl:6
calls (out=..., v=..., n=3) at calls.cl:16
16\t    acc += scale(i, (int)gid);
Value returned = (int) 1
Temporary breakpoint 2 at calls.cl:16
2       breakpoint     del  y   calls.cl:16 in calls
\tstop only if i == 2
Temporary breakpoint 2, calls (out=..., v=..., n=3) at calls.cl:16
i = (int) 2
acc = (int) 2
scale (x=2, y=0) at calls.cl:6
6\t  int t = x * y;
7\t  return t + 1;
t = (int) 0
#1  calls (out=..., v=..., n=3) at calls.cl:16
acc = (int) 2
#0  scale (x=2, y=0) at calls.cl:7
Value returned = (int) 1
17\t  }
15\t  for (int i = 0; i < n; i++) {
i = (int) 2
18\t  float4 f = v[gid];
19\t  out[gid] = acc + p.a + arr[gid % 4] + (int)f.y;
f = (float4) (0, 1, 2, 3)
f.y + f.w = (float) 4
f.lo = (float2) (0, 1)
f.s32 = (float2) (3, 2)
v[1] = (float4) (4, 5, 6, 7)
v[1] * 2 = (float4) (8, 10, 12, 14)
v[1].z > 5 = (int) 1
(int)(f.w * 2.5f) = (int) 7
acc + p.a + arr[gid % 4] + (int)f.y = (int) 17
get_global_id(0) + 1 = (ulong) 1
Cannot access 4 bytes at offset 20 of `out` (global memory of 16 bytes).
No symbol "nosuch" in current context.
255 = (int) 0xff
gid = (size_t) 0
acc = (int) 3
p = (pair) {a = 3, b = 0.5}
arr = (int[4]) {10, 20, 30, 40}
f = (float4) (0, 1, 2, 3)
14\t  int arr[4] = {10, 20, 30, 40};
20\t}
[kernel `calls` finished: 2 work-groups]
arg0 int[4]: 17 34 51 68
EOF

# ---- work-items and barriers ------------------------------------------------------------------------
# exchange(data = 1..8, tmp) in groups of 4: tmp[lid] = 10*data[gid]; barrier; data[gid] =
# tmp[3 - lid] + lid: group 0 gives 40 31 22 13, group 1 gives 80 71 62 53.
session exchange 0 "$TMP/exchange.spv" -g 8 -l 4 'int[8]=range(1)' local:16 --print <<'EOF'
break 9
continue
info workitems
print tmp[0]
print tmp[3]
x/4dw tmp
continue
print lid
print n - 1 - lid
next
print w
delete
watch data[6]
continue
workitem 1
info workitems
continue
EOF
expect exchange "breakpoints in each work-item, watchpoint in another group" <<'EOF'
Kernel `exchange`: 2 work-groups of 4 work-items (global 8,1,1 local 4,1,1)
Breakpoint 1 at exchange.cl:9
Breakpoint 1, exchange (data=..., tmp=...) at exchange.cl:9
9\t  int w = tmp[n - 1 - lid];
Work-group (0,0,0), 4 work-items:
  global ids...state...where
* 0 ...stopped...exchange.cl:9 in exchange
  1-3 ...ready...exchange.cl:9 in exchange
tmp[0] = (int) 10
tmp[3] = (int) 40
<tmp+0>:\t10\t20\t30\t40
[Switching to work-item global (1,0,0) local (1,0,0) group (0,0,0)]
Breakpoint 1, exchange (data=..., tmp=...) at exchange.cl:9
lid = (size_t) 1
n - 1 - lid = (ulong) 2
10\t  data[get_global_id(0)] = w + (int)lid;
w = (int) 30
Watchpoint 2: data[6]
[Switching to work-item global (6,0,0) local (2,0,0) group (1,0,0)]
Watchpoint 2: data[6]
Old value = (int) 7
New value = (int) 62
exchange (data=..., tmp=...) at exchange.cl:11
That work-group has already finished (work-groups run in order; the current one is 1).
Work-group (1,0,0), 4 work-items:
  4-5 ...finished
* 6 ...stopped...exchange.cl:11 in exchange
  7 ...ready...exchange.cl:9 in exchange
[kernel `exchange` finished: 2 work-groups]
arg0 int[8]: 40 31 22 13 80 71 62 53
EOF

# Work-items at the barrier: work-items 0 and 1 wait there when work-item 2 stops at line 7; stepping
# work-item 2 over the barrier runs work-item 3 up to it, then all go on.
session barrier 0 "$TMP/exchange.spv" -g 8 -l 4 'int[8]=range(1)' local:16 <<'EOF'
break 7 if lid == 2
continue
info workitems
next
next
info workitems
print w
print tmp[1] + tmp[2]
workgroup 1
print get_group_id(0)
print v
quit
EOF
expect barrier "barrier status and stepping across a barrier" <<'EOF'
Breakpoint 1 at exchange.cl:7
[Switching to work-item global (2,0,0) local (2,0,0) group (0,0,0)]
Breakpoint 1, exchange (data=..., tmp=...) at exchange.cl:7
7\t  tmp[lid] = v * 10;
  0-1 ...at barrier...exchange.cl:8 in exchange
* 2 ...stopped...exchange.cl:7 in exchange
  3 ...not started
2 of 4 work-items wait at the barrier at exchange.cl:8.
8\t  barrier(CLK_LOCAL_MEM_FENCE);
9\t  int w = tmp[n - 1 - lid];
  0-1, 3 ...ready...exchange.cl:9 in exchange
* 2 ...stopped...exchange.cl:9 in exchange
w = (int) 0
tmp[1] + tmp[2] = (int) 50
[Switching to work-item global (4,0,0) local (0,0,0) group (1,0,0)]
exchange (data=..., tmp=...) at exchange.cl:4
get_group_id(0) = (ulong) 1
v = (int) 0
EOF

# A spin on an atomic: work-item 0 waits at line 7 until work-item 3 stores 7 at line 11. It yields
# (sub-groups make forward progress), the others run in turn and work-item 3 reaches the breakpoint;
# before, work-item 0 spun until the step limit.
session spin 0 "$TMP/spin.spv" -g 4 -l 4 'int[1]' 'int[1]' <<'EOF'
break 11
continue
info workitems
continue
print out[0]
quit
EOF
expect spin "a work-item spinning on an atomic lets the one it waits for run" <<'EOF'
Breakpoint 1 at spin.cl:11
[Switching to work-item global (3,0,0) local (3,0,0) group (0,0,0)]
Breakpoint 1, spin (flag=..., out=...) at spin.cl:11
11\t    atomic_store(flag, 7);
  0 ...ready...spin.cl:7 in spin
  1-2 ...finished
* 3 ...stopped...spin.cl:11 in spin
[kernel `spin` finished: 1 work-group]
out[0] = (int) 7
EOF

# -O2: the variables are SSA values (DebugValue); before line 8 runs, v = data[0] = 1.
session optimized 0 "$TMP/exchange_o2.spv" -g 4 'int[4]=range(1)' local:16 <<'EOF'
break 8
continue
info locals
print v * 10 + (int)n
EOF
expect optimized "DebugValue variables at -O2" <<'EOF'
Breakpoint 1, exchange (data=..., tmp=...) at exchange.cl:8
lid = (size_t) 0
n = (size_t) 4
v = (int) 1
v * 10 + (int)n = (int) 14
EOF

# ---- a __local array declared in the kernel -----------------------------------------------------------
# tile(out, in = 0..7) in groups of 4: t[lx][j] = 10 * in[g] + j, so in group 0 t[r][j] = 10r + j and
# out[g] = t[3 - lx][lx]: 30 21 12 3; group 1 (in = 4..7) t[r][j] = 10(4 + r) + j: 70 61 52 43.
# llvm-spirv-14 writes its DebugTypeArray as the counts 4, 4, then two DebugInfoNone lower bounds:
# the type is float[4][4], 64 bytes of local memory. The same session at -O0 and -O2. As words,
# t[3][2] = 32.0f and t[3][3] = 33.0f are 0x42000000 = 1107296256 and 0x42040000 = 1107558400.
for v in tile tile_o2; do
  session "$v" 0 "$TMP/$v.spv" -g 8 -l 4 'float[8]' 'float[8]=range(0)' --print <<'EOF'
break 9
continue
print t
print t[1][2]
print t[3][1] - t[1][3]
whatis t
whatis t[1]
x/4f t[2]
x/2dw &t[3][2]
info locals
delete
workgroup 1
break 10
continue
print t[0]
print s
delete
continue
EOF
  expect "$v" "a local float[4][4] declared in the kernel ($v)" <<'EOF'
Breakpoint 1 at tile.cl:9
Breakpoint 1, tile (out=..., in=...) at tile.cl:9
t = (float[4][4]) {{0, 1, 2, 3}, {10, 11, 12, 13}, {20, 21, 22, 23}, {30, 31, 32, 33}}
t[1][2] = (float) 12
t[3][1] - t[1][3] = (float) 18
type = float[4][4]
type = float[4]
<t+32>:\t20\t21\t22\t23
<t+56>:\t1107296256\t1107558400
lx = (size_t) 0
Breakpoint 2, tile (out=..., in=...) at tile.cl:10
t[0] = (float[4]) {40, 41, 42, 43}
s = (float) 70
[kernel `tile` finished: 2 work-groups]
arg0 float[8]: 30 21 12 3 70 61 52 43
EOF
done

# locals.cl over 4 work-items: one[l] = 2l, three[1][2][l] = l + 100, recs[k].a = 7k for k < 3, so
# out[l] = 2l + l + 100 + 7(l % 3): 100 110 120 109. three[1][2] starts (1*3*4 + 2*4) * 2 = 40 bytes
# into three: C's order of dimensions, outermost first, in the type names too.
for v in locals locals_o2; do
  session "$v" 0 "$TMP/$v.spv" -g 4 'int[4]' --print <<'EOF'
break 13
continue
print one[1]@3
whatis three
whatis three[1]
print three[1][2]
x/4dh three[1][2]
ptype recs
whatis recs[1].b
print recs[2].a
whatis &recs[1]
delete
continue
EOF
  expect "$v" "local arrays of one and three dimensions and of structs ($v)" <<'EOF'
Breakpoint 1, locals (out=...) at locals.cl:13
one[1]@3 = (int[3]) {2, 4, 6}
type = short[2][3][4]
type = short[3][4]
three[1][2] = (short[4]) {100, 101, 102, 103}
<three+40>:\t100\t101\t102\t103
type = struct rec {
    int a;
    float b[2];
} [3]
type = float[2]
recs[2].a = (int) 14
type = local rec *
arg0 int[4]: 100 110 120 109
EOF
done

# ---- -O1/-O2: a value the debug information does not give is <optimized out>, never stale ---------
# opt(out, in = 1,5,2,9, n = 3), by hand for work-item 0: x = 1, y = 3 - 1 = 2, z = 4, then
# z = 3z + in[i]: 13, 44, 134; w = 132; out[0] = 132. clang -O2 joins `z` after the loop in a phi it
# does not describe and describes `w` by an OpUndef: at line 18 both are <optimized out> (the last
# DebugValue of z in module order, z = 4, would be a stale value).
session opt_o2 0 "$TMP/opt_o2.spv" -g 4 'int[4]' 'int[4]=1,5,2,9' int:3 <<'EOF'
break 18
continue
info locals
quit
EOF
expect opt_o2 "optimized-out values at -O2" <<'EOF'
Breakpoint 1, opt (out=..., in=..., n=3) at opt.cl:18
g = (int) 0
x = (int) 1
y = (int) 2
z = <optimized out>
w = <optimized out>
EOF

# locals_agree OPT LINE COND: stop at LINE (where the optimizer puts it) when COND holds, in the
# build OPT (opt_o1, opt_o2) and the -O0 build of opt.cl; every value `info locals` shows in the
# optimized build must be the -O0 value or <optimized out>.
locals_agree() {
  opt=$1
  shift
  printf 'break %s if %s\ncontinue\ninfo locals\n' "$1" "$2" |
    "$SPVI" debug "$TMP/$opt.spv" -g 4 'int[4]' 'int[4]=1,5,2,9' int:3 >"$TMP/agree2.out" 2>/dev/null
  line=$(sed -n 's/^Breakpoint 1, opt (.*) at opt\.cl:\([0-9]*\)$/\1/p' "$TMP/agree2.out")
  printf 'break %s if %s\ncontinue\ninfo locals\n' "${line:-0}" "$2" |
    "$SPVI" debug "$TMP/opt.spv" -g 4 'int[4]' 'int[4]=1,5,2,9' int:3 >"$TMP/agree0.out" 2>/dev/null
  awk '/\) info locals$/ { on = 1; next } on && /^\(spvi / { exit } on' "$TMP/agree2.out" >"$TMP/agree2.vars"
  awk '/\) info locals$/ { on = 1; next } on && /^\(spvi / { exit } on' "$TMP/agree0.out" >"$TMP/agree0.vars"
  bad=$(while IFS= read -r l; do
    case $l in *' = <optimized out>') ;; *) grep -qxF "$l" "$TMP/agree0.vars" || echo "$l" ;; esac
  done <"$TMP/agree2.vars")
  if [ -n "$line" ] && grep -q "^Breakpoint 1, opt (.*) at opt\.cl:$line\$" "$TMP/agree0.out" &&
    [ -s "$TMP/agree2.vars" ] && [ -z "$bad" ]; then
    passed=$((passed + 1))
  else
    echo "FAIL $opt locals at line $1 (it stops at ${line:-none}) if $2: $bad"
    sed 's/^/  opt | /' "$TMP/agree2.out"
    sed 's/^/  O0 | /' "$TMP/agree0.out"
    failed=$((failed + 1))
  fi
}
for opt in opt_o1 opt_o2; do
  for g in 0 1 2 3; do
    for l in 6 7 8 13 15 17 18; do locals_agree $opt $l "get_global_id(0) == $g"; done
  done
  locals_agree $opt 15 'get_global_id(0) == 1 && i == 2'
done

# ---- ptype, whatis, artificial arrays, buffers after the kernel ----------------------------------------
# calls.cl as in the first session: out = 17 34 51 68 at the end; v[i] = (4i, 4i+1, 4i+2, 4i+3).
session types 0 "$TMP/calls.spv" -g 4 -l 2 'int[4]' 'float4[4]=range(0)' int:3 <<'EOF'
break 19
continue
whatis p
ptype p
ptype &p
whatis arr
ptype v
whatis pair
ptype struct pair
whatis uint
print arr[1]@2
print *v@2
print arr[1]@2 + 1
print gid@2
print 5@2
print *out@0
delete
continue
x/4d out
print *out@4
print out[3] - out[0]
whatis out
print arg1[1].y
print n
EOF
expect types "ptype, whatis, *p@N and buffers after the kernel" <<'EOF'
type = pair
type = struct pair {
    int a;
    float b;
}
type = struct pair {
    int a;
    float b;
} private *
type = int[4]
type = global float4 *
type = pair
type = struct pair {
    int a;
    float b;
}
type = uint
arr[1]@2 = (int[2]) {20, 30}
*v@2 = (float4[2]) {(0, 1, 2, 3), (4, 5, 6, 7)}
arr[1]@2 + 1 = (int[3]) {20, 30, 40}
Cannot access 16 bytes at offset 0 of `gid` (private memory of 8 bytes).
Only values in memory can be extended with '@'.
Invalid number 0 of repetitions.
[kernel `calls` finished: 2 work-groups]
(spvi finished) x/4d out
<out+0>:\t17\t34\t51\t68
*out@4 = (int[4]) {17, 34, 51, 68}
out[3] - out[0] = (int) 51
type = global int *
arg1[1].y = (float) 5
No symbol "n" in current context.
EOF

# info workitems in a 2-dimensional launch (exchange.cl, local size 2x2): ids are local linear ids
# x + 2y; with work-item (1,1) stopped at line 7, (0,0), (1,0) and (0,1) wait at the barrier.
session workitems2d 0 "$TMP/exchange.spv" -g 2,2 -l 2,2 'int[4]=range(1)' local:16 <<'EOF'
break 7 if get_local_id(0) == 1 && get_local_id(1) == 1
continue
info workitems
quit
EOF
expect workitems2d "info workitems groups work-items by place (2-D)" <<'EOF'
  local linear ids...state...where
  0-2 ...at barrier...exchange.cl:8 in exchange
* 3 ...stopped...exchange.cl:7 in exchange
3 of 4 work-items wait at the barrier at exchange.cl:8.
EOF

# ---- a fault stops the session in the faulting work-item ------------------------------------------
# oob(out[4], idx = 0,1,7,2): work-item 2 writes out[7], 28 bytes into a 16-byte buffer.
session fault 1 "$TMP/oob.spv" -g 4 'int[4]' 'int[4]=0,1,7,2' <<'EOF'
continue
print k
print g
info workitems
continue
EOF
expect fault "fault stop, focus, state" <<'EOF'
[Switching to work-item global (2,0,0) local (2,0,0) group (0,0,0)]
Fault: out-of-bounds access in kernel `oob`
  work-item global (2,0,0) local (2,0,0) group (0,0,0)
  write of 4 bytes at offset 28 of argument 0 (global buffer of 16 bytes)
oob (out=..., idx=...) at oob.cl:6
6\t  out[k] = (int)g;
(spvi 2,0,0 oob.cl:6 faulted) print k
k = (int) 7
g = (size_t) 2
  0-1 ...finished
* 2 ...faulted...oob.cl:6 in oob
  3 ...not started
The kernel faulted; it cannot run further.
EOF

# Barrier divergence (tests/kernels/fault_barrier.cl): local ids 0 and 1 wait at the barrier inside
# `if (get_local_id(0) < 2)`, 2 and 3 finish; the fault names the first waiting work-item.
compile divergent "$HERE/../kernels/fault_barrier.cl" -O0 -g
session divergence 1 "$TMP/divergent.spv" -k barrier_divergent -g 4 'int[4]' <<'EOF'
continue
info workitems
print l
EOF
expect divergence "barrier divergence stops at the barrier" <<'EOF'
Fault: barrier divergence in kernel `barrier_divergent`
  work-item global (0,0,0) local (0,0,0) group (0,0,0)
barrier_divergent (out=...) at fault_barrier.cl:8
8\t    barrier(CLK_LOCAL_MEM_FENCE);
* 0 ...faulted...fault_barrier.cl:8 in barrier_divergent
  1 ...at barrier...fault_barrier.cl:8 in barrier_divergent
  2-3 ...finished
2 of 4 work-items wait at the barrier at fault_barrier.cl:8.
l = (size_t) 0
EOF

# ---- SPIR-V level: no line information --------------------------------------------------------------
# twice(out = 5,6,7,8): twice_one(x) = 2x + 1 -> 11 13 15 17.
session spirv 0 "$TMP/twice.spv" -g 4 'uint[4]=range(5)' --print <<'EOF'
info args
stepi
stepi 2
print %33
break %20
continue
print %14 * 2 + 1
stepi
print %y
bt
finish
list
info locals
print arg0[1]
x/4dw arg0
delete
continue
EOF
expect spirv "instruction stepping, %ID breakpoints and values, disassembly" <<'EOF'
Kernel `twice`: 1 work-group of 4 work-items (global 4,1,1 local 4,1,1); no source line information: stepping is by SPIR-V instruction
twice (%30=...<arg0+0>) at %31+0
=> %32 = OpLoad %v3ulong ...
%30 = (global int *) ...<arg0+0>
twice (%30=...<arg0+0>) at %31+1
=> %33 = OpCompositeExtract %ulong %32 0
=> %34 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %30 %33
=> %35 = OpLoad %uint %34
(spvi 0,0,0 twice %31+3) print %33
%33 = (long) 0
Breakpoint 1 at `%y = OpIMul %uint %14 %uint_2` in twice_one
Breakpoint 1, twice_one (%14=5) at %15+0
=> %y = OpIMul %uint %14 %uint_2
%14 * 2 + 1 = (int) 11
=> %21 = OpIAdd %uint %y %uint_1
%y = (int) 10
#0  twice_one (%14=5) at %15+1
#1  twice (%30=...<arg0+0>) at %31+4
Run till exit from #0  twice_one (%14=5) at %15+1
twice (%30=...<arg0+0>) at %31+5
=> OpStore %34 %36
Value returned = (int) 11
   %36 = OpFunctionCall %uint %twice_one %35
=> OpStore %34 %36
   OpReturn
No symbol table info available (compile with -g; `print %ID` reads SPIR-V values).
arg0[1] = (int) 6
<arg0+0>:\t5\t6\t7\t8
[kernel `twice` finished: 1 work-group]
arg0 uint[4]: 11 13 15 17
EOF

# display and nexti: the displayed %33 (gid 0: 0) is shown after every stop; nexti runs the call to
# twice_one in one step: %36 = twice_one(in[0] = 5) = 5 * 2 + 1 = 11.
session spirv_nexti 0 "$TMP/twice.spv" -g 4 'uint[4]=range(5)' <<'EOF'
display %33
stepi 3
nexti
nexti
print %36
quit
EOF
expect spirv_nexti "display and nexti at SPIR-V level" <<'EOF'
1: %33 = (long) 0
=> %35 = OpLoad %uint %34
(spvi 0,0,0 twice %31+3) nexti
=> %36 = OpFunctionCall %uint %twice_one %35
1: %33 = (long) 0
(spvi 0,0,0 twice %31+4) nexti
twice (%30=... <arg0+0>) at %31+5
=> OpStore %34 %36
%36 = (int) 11
EOF

# ---- commands from a file, help, mistakes ------------------------------------------------------------
printf 'break 19\ncontinue\nprint gid\n' >"$TMP/script.gdb"
session script 0 "$TMP/calls.spv" -x "$TMP/script.gdb" -g 2 'int[2]' 'float4[2]' int:1 <<'EOF'
print acc
help
help watch
frob
s
p nosuch
info frob
quit
EOF
expect script "-x FILE then standard input; help; unknown and abbreviated commands" <<'EOF'
(spvi 0,0,0 calls.cl:11) break 19
Breakpoint 1, calls (out=..., v=..., n=1) at calls.cl:19
gid = (size_t) 0
(spvi 0,0,0 calls.cl:19) print acc
acc = (int) 1
Commands (any unique prefix works; gdb's short forms in brackets):
  watch...Stop when the value of EXPR changes. An object in global or constant memory is watched in every
watch EXPR
Undefined command: "frob".  Try "help".
20\t}
No symbol "nosuch" in current context.
Undefined info command "frob".  Try "help info".
EOF

if "$SPVI" debug "$TMP/calls.spv" -x "$TMP/missing.gdb" -g 1 'int[1]' 'float4[1]' int:1 </dev/null >"$TMP/out" 2>"$TMP/err"; then
  echo "FAIL missing -x file accepted"
  failed=$((failed + 1))
elif grep -qF 'cannot open the command file' "$TMP/err"; then passed=$((passed + 1))
else echo "FAIL missing -x file: wrong message"; cat "$TMP/err"; failed=$((failed + 1)); fi

if "$SPVI" debug --help >"$TMP/out" && grep -qF 'usage: spvi debug MODULE.spv [-x FILE]' "$TMP/out"; then passed=$((passed + 1))
else echo "FAIL spvi debug --help"; failed=$((failed + 1)); fi

# ---- a debugged run gives spvi run's results ------------------------------------------------------
# Buffers (--out .npy files, byte for byte) and printf output of `continue` to the end, against a
# plain run at the default warp width, for kernels with barriers, collectives and printf.
compile reduce "$HERE/../kernels/local_reduce.cl" -O0 -g
compile collectives "$HERE/../kernels/wg_collectives.cl" -O2
compile printf "$HERE/../cli/printf.cl" -O0 -g
same_results() {  # NAME SPVI-ARGS...
  name=$1
  shift
  rm -rf "$TMP/run.d" "$TMP/dbg.d"
  "$SPVI" run "$@" --out "$TMP/run.d" >"$TMP/run.txt" 2>"$TMP/run.err"
  rs=$?
  printf 'continue\n' | "$SPVI" debug "$@" --out "$TMP/dbg.d" >"$TMP/dbg.txt" 2>"$TMP/dbg.err"
  ds=$?
  ok=1
  [ "$rs" -eq 0 ] && [ "$ds" -eq 0 ] || ok=0
  for f in "$TMP"/run.d/*.npy; do
    [ -f "$f" ] || { ok=0; break; }
    cmp -s "$f" "$TMP/dbg.d/$(basename "$f")" || ok=0
  done
  # kernel printf output: what the debugged run printed between `continue` and the end of the kernel
  awk '/^\[kernel / { on = 0 } on && length($0) { print } /^\(spvi .*\) continue$/ { on = 1 }' "$TMP/dbg.txt" >"$TMP/dbg.pf"
  cmp -s "$TMP/run.txt" "$TMP/dbg.pf" || ok=0
  if [ "$ok" = 1 ]; then passed=$((passed + 1))
  else
    echo "FAIL same results: $name (run status $rs, debug status $ds)"
    diff "$TMP/run.txt" "$TMP/dbg.pf" | head -20
    cat "$TMP/run.err" "$TMP/dbg.err"
    failed=$((failed + 1))
  fi
}
# expect_note NAME: the session's standard error is the load's one note on its debug information.
expect_note() {
  if [ "$(wc -l <"$TMP/$1.err")" -eq 1 ] &&
    grep -qF "spvi: note: $TMP/$1.spv: the validator rejects the debug information (word " "$TMP/$1.err"; then
    passed=$((passed + 1))
  else
    echo "FAIL $1: standard error is not the one note: $(cat "$TMP/$1.err")"
    failed=$((failed + 1))
  fi
}

# ---- debug information the validator rejects: tests/cli/debuginfo.cl with -g at -O0 and -O2 ------
# The load notes it once (and warns about nothing), --strict accepts the module, and the debugger
# reads every variable: in work-item 5 at line 19, l = 5, tmp[l] = in[5] = 5 after the copy, so
# tmp[l] * 3 + 1 = 16 (the value put stores); p is the null generic pointer to struct node.
compile debuginfo "$HERE/../cli/debuginfo.cl" -O0 -g
compile debuginfo_o2 "$HERE/../cli/debuginfo.cl" -O2 -g
for name in debuginfo debuginfo_o2; do
  session $name 0 --strict "$TMP/$name.spv" -g 8 -l 8 'int[8]' 'int[8]=range(0)' local:32 --print <<'EOF' || continue
break 19 if l == 5
continue
print l
print tmp[l] * 3 + 1
print p
disassemble
continue
EOF
  # the disassembly too: SPIRV-Tools cannot decode the event_t DebugTypePointer, which alone is
  # left out of it
  expect $name "debug information read leniently ($name)" <<'EOF'
Breakpoint 1 at debuginfo.cl:19
[Switching to work-item global (5,0,0) local (5,0,0) group (0,0,0)]
19\t  put(out, get_global_id(0), tmp[l] * 3 + (p ? p->v : 1));
l = (size_t) 5
tmp[l] * 3 + 1 = (int) 16
p = (generic node *) 0x0
Dump of SPIR-V for function dbg:
   %dbg = OpFunction %void ...
End of dump.
arg0 int[8]: 1 4 7 10 13 16 19 22
EOF
  expect_note $name
done

# ---- one unreadable debug entry drops that entry alone (unreadable.spvasm, its header says which) -
# a + b = 16 and the members and components as the module's constants give them.
session unreadable 0 "$TMP/unreadable.spv" -g 1 'int[1]' --print <<'EOF'
break 7
continue
info locals
print s.x + 1
print s.y
print c
print a + b
continue
EOF
expect unreadable "unreadable debug entries" <<'EOF'
Breakpoint 1 at unreadable.cl:7
a = (int) 7
b = (int) 9
s = (pair) {x = 7, y = <unreadable debug type>}
v = (int4) (1, 2, 3, 4)
(spvi 0,0,0 unreadable.cl:7) print s.x + 1
s.x + 1 = (int) 8
s.y = (unreadable debug type) <unreadable debug type>
No symbol "c" in current context.
a + b = (int) 16
arg0 int[1]: 16
EOF
expect_note unreadable

same_results calls "$TMP/calls.spv" -g 64 -l 16 'int[64]' 'float4[64]=random(3,-9,9)' int:5
same_results exchange "$TMP/exchange.spv" -g 96 -l 32 'int[96]=random(1,-1000,1000)' local:128
same_results exchange_nonuniform "$TMP/exchange.spv" -g 90 -l 32 'int[90]=range(7,3)' local:128
same_results exchange_o2 "$TMP/exchange_o2.spv" -g 96 -l 32 'int[96]=random(2,-1000,1000)' local:128
same_results reduce "$TMP/reduce.spv" -k reduce_sum -g 256 -l 64 'int[4]' 'int[256]=random(4,-50,50)'
same_results collectives "$TMP/collectives.spv" -g 100 -l 50 'int[100]=random(5,-9,9)' 'int[100]' 'int[100]' \
  'int[100]' 'int[100]' 'float[100]' 'int[100]' 'int[100]'
same_results printf "$TMP/printf.spv" -g 6 -l 3 'int[6]=range(-2)'
same_results twice "$TMP/twice.spv" -g 40 -l 8 'uint[40]=random(6,0,1000)'
# the kernels of the sessions above against plain runs at warp widths 1, 7 and 32 (`spvi debug`
# ignores --warp: it runs one work-item at a time)
for w in 1 7 32; do
  same_results "tile/$w" "$TMP/tile.spv" --warp $w -g 64 -l 4 'float[64]' 'float[64]=random(7,-9,9)'
  same_results "tile_o2/$w" "$TMP/tile_o2.spv" --warp $w -g 64 -l 4 'float[64]' 'float[64]=random(7,-9,9)'
  same_results "opt/$w" "$TMP/opt.spv" --warp $w -g 16 'int[16]' 'int[16]=random(8,-9,9)' int:16
done
same_results opt_o2 "$TMP/opt_o2.spv" -g 16 'int[16]' 'int[16]=random(8,-9,9)' int:16

# the interactive prompt through a pseudo-terminal (libedit: prompt, history recall, quit)
if timeout 60 python3 "$HERE/pty_session.py" "$SPVI" "$TMP/calls.spv" -g 4 -l 2 'int[4]' 'float4[4]=range(0)' int:3 \
    >"$TMP/pty.out" 2>&1; then
  passed=$((passed + 1))
else
  echo "FAIL pty session: $(cat "$TMP/pty.out")"
  failed=$((failed + 1))
fi

echo "debug tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
