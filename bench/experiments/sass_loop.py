#!/usr/bin/env python3
"""The K loop of a kernel in cuobjdump's SASS: the longest backward branch
of the function. Prints its instruction count, the mix, and the position
(within the loop) of its global loads, local stores and barriers.
Usage: sass_loop.py FILE.sass KERNEL"""
import collections
import re
import sys

text = open(sys.argv[1]).read()
start = text.find(f"Function : {sys.argv[2]}\n")
end = text.find("Function :", start + 1)
body = text[start:end if end > 0 else len(text)]
code = []  # (address, instruction)
for line in body.splitlines():
    m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
    if m:
        code.append((int(m.group(1), 16), m.group(2)))
loops = []
for addr, ins in code:
    m = re.search(r"\bBRA\s+(?:`\(\.L_x_\d+\)|0x([0-9a-f]+))", ins)
    if m and m.group(1) and int(m.group(1), 16) < addr:
        loops.append((int(m.group(1), 16), addr))
if not loops:
    sys.exit("no loop found")
first, last = max(loops, key=lambda l: l[1] - l[0])
loop = [ins for addr, ins in code if first <= addr <= last]
opcode = [re.sub(r"^@!?U?P\w+\s+", "", ins).split()[0].split(".")[0] for ins in loop]
mix = collections.Counter(opcode)
print(f"K loop: {len(loop)} instructions, {mix['FFMA']} FFMA ({mix['FFMA'] / len(loop):.3f}); "
      + ", ".join(f"{op} {n}" for op, n in mix.most_common() if op != "FFMA"))
for kind in ("LDG", "STS", "BAR"):
    where = [i for i, op in enumerate(opcode) if op == kind]
    print(f"  {kind} at {where}")
