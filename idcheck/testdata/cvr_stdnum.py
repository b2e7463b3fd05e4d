#!/usr/bin/python3
"""Generate cvr_stdnum_1.18.tsv: python-stdnum's verdict on generated CVR inputs.

Run once with python-stdnum 1.18 (Debian bookworm's python3-stdnum):

    /usr/bin/python3 idcheck/testdata/cvr_stdnum.py > idcheck/testdata/cvr_stdnum_1.18.tsv

The inputs are drawn with a fixed seed: eight-digit numbers with and without a
correct check digit, numbers of 6, 7, 9 and 10 digits, leading zeros, the VAT
form (DK, dk, with and without a separator, also one between D and K),
separators between digits (every character stdnum's dk.cvr removes: space,
hyphen, dot, comma, slash, colon), letters and other symbols, and empty
input. Each row: the input, stdnum's verdict (valid, or the name of the
exception dk.cvr.validate raises) and, when valid, stdnum's compact form.
"""
import random
import sys

import stdnum
from stdnum.dk import cvr
from stdnum.exceptions import ValidationError

assert stdnum.__version__ == "1.18", stdnum.__version__

rng = random.Random(20261124)
WEIGHTS = (2, 7, 6, 5, 4, 3, 2)


def with_check(first7):
    r = sum(w * int(d) for w, d in zip(WEIGHTS, first7)) % 11
    if r == 1:
        return None
    return first7 + str(0 if r == 0 else 11 - r)


def digits(n, lead=None):
    s = "".join(rng.choice("0123456789") for _ in range(n))
    if lead is not None:
        s = lead + s[1:]
    return s


def sprinkle(s):
    out = []
    for i, c in enumerate(s):
        if i and rng.random() < 0.3:
            out.append(rng.choice([" ", "-", ".", "  ", ",", "/", ":"]))
        out.append(c)
    return "".join(out)


inputs = []
for _ in range(600):  # valid numbers, some written with separators or DK
    n = None
    while n is None:
        n = with_check(digits(7, lead=rng.choice("123456789")))
    form = rng.random()
    if form < 0.4:
        inputs.append(n)
    elif form < 0.6:
        inputs.append(sprinkle(n))
    elif form < 0.8:
        inputs.append(rng.choice(["DK", "dk", "Dk", "DK ", "dk "]) + n)
    else:
        inputs.append(rng.choice(["DK ", "DK-", "dk.", "DK:", "D-K", "d/k ", ":DK"]) + sprinkle(n))
for _ in range(600):  # any last digit: mostly checksum failures
    inputs.append(digits(8, lead=rng.choice("123456789")))
for _ in range(150):  # the prefixes with remainder 1, every last digit
    p = digits(7, lead=rng.choice("123456789"))
    if with_check(p) is None:
        inputs.extend(p + str(d) for d in range(10))
for n in (6, 7, 9, 10):  # wrong lengths
    for _ in range(60):
        inputs.append(digits(n, lead=rng.choice("123456789")))
for _ in range(100):  # leading zeros, of every length
    inputs.append(digits(rng.choice([1, 2, 7, 8, 9]), lead="0"))
for _ in range(100):  # a letter or a symbol among the digits
    n = digits(8, lead=rng.choice("123456789"))
    i = rng.randrange(len(n) + 1)
    inputs.append(n[:i] + rng.choice("XabO#+;_") + n[i:])
inputs += ["", " ", "DK", "dk ", "DKDK13585628", "13585628DK", "DK0", "-", "...", " , / : ", "D13585628",
           "1358/5628", "13585628/", "13,58,56,28"]

seen = set()
out = sys.stdout
out.write("# python-stdnum %s dk.cvr.validate on generated inputs; see cvr_stdnum.py\n" % stdnum.__version__)
out.write("input\tverdict\tcompact\n")
for s in inputs:
    if s in seen:
        continue
    seen.add(s)
    try:
        compact = cvr.validate(s)
        out.write("%s\tvalid\t%s\n" % (s, compact))
    except ValidationError as e:
        out.write("%s\t%s\t\n" % (s, type(e).__name__))
