#!/usr/bin/env python3
"""Writes the 8 symmetric copies of every game read from stdin (one SGF
game per line, the corpus's format) to stdout: the data augmentation of
issue 12's benchmark.  Only board points change (B, W, AB, AW, AE values);
a copy's content differs from the original's (unless the game is itself
symmetric), so each is stored as a game of its own.

    zcat ../shared/corpus/tygem-dev/*.sgf.gz | bench/augment.py > augmented.sgf
"""
import re
import sys

PROP = re.compile(r'(;|\])\s*(B|W|AB|AW|AE)((?:\[[^\]]*\])+)')
VALUE = re.compile(r'\[([a-z]{2})\]')
SIZE = re.compile(r'SZ\[(\d+)\]')


def images(x, y, n):
    m = n - 1
    return [(x, y), (m - x, y), (x, m - y), (m - x, m - y),
            (y, x), (m - y, x), (y, m - x), (m - y, m - x)]


def copy(game, s):
    size = SIZE.search(game)
    n = int(size.group(1)) if size else 19

    def point(match):
        v = match.group(1)
        x, y = ord(v[0]) - 97, ord(v[1]) - 97
        if x >= n or y >= n:  # a pass written as [tt]
            return match.group(0)
        u, w = images(x, y, n)[s]
        return '[' + chr(97 + u) + chr(97 + w) + ']'

    return PROP.sub(lambda m: m.group(1) + m.group(2) + VALUE.sub(point, m.group(3)), game)


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.rstrip('\n')
        if not line.strip():
            continue
        for s in range(8):
            out.write(copy(line, s) + '\n')


if __name__ == '__main__':
    main()
